// The list figures of bench/search.ts (issue 22, decision 257): the staff client list's first page
// against a deep page reached by cursor (keyset) and by page number (OFFSET), per order, measured in
// interleaved rounds (one request of each kind per round) so a busy moment of the shared machine
// falls on all of them alike; medians.

interface BenchRow {
  name: string;
  value: string;
}

type Measure = (urls: string[], token: string, runs?: number) => Promise<{ median: number; byUrl: Map<string, number[]> }>;

const PAGE_SIZE = 50;
const fmt = (n: number) => n.toFixed(1);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/** The cursor that opens page `page` of an order: the next cursor of the page before it (a page-number answer carries it). */
async function cursorOf(base: string, token: string, sort: string, page: number): Promise<string> {
  const url = `${base}/api/users/clients?sort=${sort}&pageSize=${PAGE_SIZE}&page=${page - 1}`;
  const body = (await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json()) as { cursors: { next: string | null } };
  if (!body.cursors.next) throw new Error(`${sort}: the list ended before page ${page}`);
  return body.cursors.next;
}

export async function listRows(base: string, token: string, clients: number, measure: Measure): Promise<BenchRow[]> {
  const deep = Math.min(100, Math.ceil(clients / PAGE_SIZE));
  const rows: BenchRow[] = [];
  // Every order is an index walk or a top-N sort since last activity is stored (decision 258).
  for (const [sort, rounds] of [['date', 20], ['name', 20], ['activity', 20]] as const) {
    const list = `${base}/api/users/clients?sort=${sort}&pageSize=${PAGE_SIZE}`;
    const urls = [`${list}&page=1`, `${list}&after=${await cursorOf(base, token, sort, deep)}`, `${list}&page=${deep}`];
    const { byUrl } = await measure(urls, token, rounds);
    const [first, byCursor, byOffset] = urls.map((u) => median(byUrl.get(u)!));
    rows.push(
      { name: `GET /api/users/clients sort=${sort} page 1 median ms`, value: fmt(first) },
      { name: `  page ${deep} by cursor (after=) median ms`, value: fmt(byCursor) },
      { name: `  page ${deep} by page number (OFFSET) median ms`, value: fmt(byOffset) },
    );
  }
  return rows;
}
