import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One error of the W3C Nu Html Checker, with the name of the document it is in. */
export interface NuError {
  document: string;
  line?: number;
  message: string;
  extract?: string;
}

// The checker's jar ships in the vnu-jar dev dependency (its main export is the jar's path).
const VNU_JAR = String(createRequire(import.meta.url)('vnu-jar'));

/**
 * Checks many HTML documents with one run of the Nu Html Checker (Java starts once: that start is
 * most of the cost) and answers its errors (warnings are left out). `documents` maps a name (what a
 * failure prints) to the HTML.
 */
export async function nuErrors(documents: Map<string, string>): Promise<NuError[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nu-check-'));
  try {
    const files = new Map<string, string>();
    [...documents].forEach(([name, html], i) => {
      const file = path.join(dir, `${String(i).padStart(3, '0')}.html`);
      writeFileSync(file, html);
      files.set(file, name);
    });
    const output = await new Promise<string>((resolve, reject) => {
      // Exit status 1 means "errors found"; the JSON report is on stderr either way.
      execFile(process.env.JAVA ?? 'java', ['-Xss4m', '-jar', VNU_JAR, '--format', 'json', '--errors-only', ...files.keys()], { maxBuffer: 64 * 1024 * 1024 }, (err, _stdout, stderr) => {
        if (stderr.trim().startsWith('{')) resolve(stderr);
        else reject(new Error(`the Nu Html Checker did not run: ${err?.message ?? ''}\n${stderr}`));
      });
    });
    const report = JSON.parse(output) as { messages: { type: string; subType?: string; url?: string; lastLine?: number; message: string; extract?: string }[] };
    return report.messages
      .filter((m) => m.type === 'error' || m.subType === 'fatal' || m.type === 'non-document-error')
      .map((m) => ({ document: (m.url && files.get(fileURLToPath(m.url.replace(/^file:\/*/, 'file:///')))) ?? m.url ?? '(checker)', line: m.lastLine, message: m.message, extract: m.extract }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
