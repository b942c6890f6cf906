export const meta = () => [{ title: 'Client Dashboard' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function ClientDashboardPage() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-3xl font-bold">Client Dashboard</h1>
    </div>
  );
}
