import { z } from 'zod';

/** Reads a boolean environment flag written as true/false/1/0/yes/no. */
const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const cidrList = z
  .string()
  .default('')
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
  .refine((list) => list.every((c) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(c)), {
    message: 'must be a comma-separated list of IP addresses or CIDR ranges, such as 10.0.0.0/8,127.0.0.1',
  });

const durationMinutes = (def: number) => z.coerce.number().int().positive().default(def);

/**
 * The key of development and test processes when MFA_ENCRYPTION_KEY is not set, so `npm start`
 * needs no set-up. It is public (it is in this file): production refuses it.
 */
export const DEVELOPMENT_MFA_ENCRYPTION_KEY = Buffer.from('development-only-not-secret-key!', 'utf8');
const MFA_KEY_FORMAT = 'must be 32 random bytes written as 64 hex characters or as base64 (make one with: openssl rand -base64 32)';

/** The 32 bytes of a key written as hex or base64/base64url, or null. */
function decodeEncryptionKey(value: string): Buffer | null {
  const text = value.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(text)
    ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(text)
      ? Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
      : null;
  return bytes && bytes.length === 32 ? bytes : null;
}

/** 32 bytes as hex or base64/base64url; anything else is refused without echoing the value. */
const encryptionKey = z.string().transform((value, ctx) => {
  const bytes = decodeEncryptionKey(value);
  if (!bytes) {
    ctx.addIssue({ code: 'custom', message: MFA_KEY_FORMAT });
    return z.NEVER;
  }
  return bytes;
});

/**
 * The keys MFA_ENCRYPTION_KEY had before a rotation (decision 082): one key, or several separated by
 * commas (base64 never contains one). A bad entry is refused by its position, never by its text.
 */
const previousEncryptionKeys = z.string().transform((value, ctx) => {
  const entries = value.split(',').map((s) => s.trim()).filter(Boolean);
  const keys = entries.map(decodeEncryptionKey);
  const bad = keys.findIndex((k) => !k);
  if (bad >= 0 || !keys.length) {
    const message = entries.length > 1 ? `key ${bad + 1} of ${entries.length} ${MFA_KEY_FORMAT}` : `${MFA_KEY_FORMAT} (several previous keys: separate them with commas)`;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  }
  return keys as Buffer[];
});

const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    PUBLIC_URL: z.url().optional(),
    /** A secret a monitor sends as X-Metrics-Token to read the detail of /api/health (empty: staff only). */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Other origins (scheme://host[:port], comma-separated) whose pages may send cookie-carrying writes. */
    ALLOWED_ORIGINS: z
      .string()
      .optional()
      .transform((v, ctx) => {
        const out: string[] = [];
        for (const item of (v ?? '').split(',').map((x) => x.trim()).filter(Boolean)) {
          try {
            const u = new URL(item);
            if (u.origin === 'null' || !/^https?:$/.test(u.protocol)) throw new Error('not http(s)');
            out.push(u.origin);
          } catch {
            ctx.addIssue({ code: 'custom', message: `"${item}" is not an http(s) origin such as https://portal.example.com` });
          }
        }
        return out;
      }),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    EMBEDDED_PG_DIR: z.string().min(1).optional(),
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
    DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
    UPLOADS_DIR: z.string().min(1).optional(),
    STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
    S3_ENDPOINT: z.url().optional(),
    S3_BUCKET: z.string().optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
    MAIL_FROM: z.string().min(3).default('Website <no-reply@localhost>'),
    STAFF_EMAIL: z.email().default('staff@localhost.test'),
    ADMIN_ALLOWED_CIDRS: cidrList,
    TRUSTED_PROXY_CIDRS: cidrList,
    ADMIN_MFA_REQUIRED: flag.optional(),
    /** Encrypts the admins' TOTP secrets at rest (AES-256-GCM); required in production. */
    MFA_ENCRYPTION_KEY: encryptionKey.optional(),
    /** Keys MFA_ENCRYPTION_KEY had before: still open old secrets, which start-up re-seals (decision 082). */
    MFA_ENCRYPTION_KEY_PREVIOUS: previousEncryptionKeys.optional(),
    CLIENT_SESSION_IDLE_MINUTES: durationMinutes(14 * 24 * 60),
    CLIENT_SESSION_ABSOLUTE_MINUTES: durationMinutes(30 * 24 * 60),
    ADMIN_SESSION_IDLE_MINUTES: durationMinutes(2 * 60),
    ADMIN_SESSION_ABSOLUTE_MINUTES: durationMinutes(12 * 60),
    GEMINI_API_KEY: z.string().optional(),
    GEMINI_API_URL: z.url().default('https://generativelanguage.googleapis.com'),
    /** The generative model of the support chat (issue 11). */
    GEMINI_MODEL: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be a model name such as gemini-2.5-flash').default('gemini-2.5-flash'),
    /** How long the chat waits for the first words, and for the whole answer, before answering from the facts. */
    GEMINI_FIRST_CHUNK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(8_000),
    GEMINI_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
    /** Paystack's secret key (issue 26, decision 298): set, clients may pay invoices online; unset, invoices show the bank details only. */
    PAYSTACK_SECRET_KEY: z.string().regex(/^sk_[A-Za-z0-9_]{8,200}$/, 'must be a Paystack secret key (sk_...)').optional(),
    PAYSTACK_API_URL: z.url().default('https://api.paystack.co'),
    NEWS_API_KEY: z.string().optional(),
    NEWS_API_URL: z.url().default('https://newsapi.org/v2/everything'),
    /** How long one call of the news service may take (connection, headers and body). */
    NEWS_API_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    FORMMAIL_URL: z.url().optional(),
    /** How often each process looks for website schedules whose time has come (decision 283). */
    CONTENT_SCHEDULE_TICK_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
    /** Serve the web pages too; off only for API-only processes and the process tests. */
    SERVE_WEB: flag.default(true),
  })
  .superRefine((c, ctx) => {
    const previous = c.MFA_ENCRYPTION_KEY_PREVIOUS ?? [];
    const current = c.MFA_ENCRYPTION_KEY ?? DEVELOPMENT_MFA_ENCRYPTION_KEY;
    if (previous.some((k) => k.equals(current))) {
      ctx.addIssue({ code: 'custom', path: ['MFA_ENCRYPTION_KEY_PREVIOUS'], message: 'must not contain MFA_ENCRYPTION_KEY itself: list only the keys it replaced (the current key is always tried)' });
    } else if (previous.some((k, i) => previous.findIndex((other) => other.equals(k)) !== i)) {
      ctx.addIssue({ code: 'custom', path: ['MFA_ENCRYPTION_KEY_PREVIOUS'], message: 'lists the same key twice' });
    }
    if (c.NODE_ENV !== 'production') return;
    if (!c.MFA_ENCRYPTION_KEY) {
      ctx.addIssue({ code: 'custom', path: ['MFA_ENCRYPTION_KEY'], message: 'is required in production: 32 random bytes as 64 hex characters or base64 (make one with: openssl rand -base64 32)' });
    } else if (c.MFA_ENCRYPTION_KEY.equals(DEVELOPMENT_MFA_ENCRYPTION_KEY)) {
      ctx.addIssue({ code: 'custom', path: ['MFA_ENCRYPTION_KEY'], message: 'is the public development key; production needs its own (make one with: openssl rand -base64 32)' });
    }
  })
  .transform(({ MFA_ENCRYPTION_KEY, MFA_ENCRYPTION_KEY_PREVIOUS, ...c }) => {
    const dataDir = c.DATA_DIR;
    return {
      ...c,
      // The key itself leaves the raw variables, so printing the configuration never shows it.
      mfaEncryptionKey: MFA_ENCRYPTION_KEY ?? DEVELOPMENT_MFA_ENCRYPTION_KEY,
      mfaEncryptionKeyIsDefault: !MFA_ENCRYPTION_KEY,
      /** Older keys: they only open secrets sealed before the rotation, which are then re-sealed. */
      mfaPreviousEncryptionKeys: MFA_ENCRYPTION_KEY_PREVIOUS ?? [],
      isProduction: c.NODE_ENV === 'production',
      publicUrl: c.PUBLIC_URL ?? `http://localhost:${c.PORT}`,
      /**
       * Origins whose cookie-carrying writes are accepted (decision 113): PUBLIC_URL's origin exactly
       * (scheme included), ALLOWED_ORIGINS, and, only while PUBLIC_URL is unset (a local start), the
       * two loopback spellings of the default.
       */
      allowedOrigins: [
        ...new Set([
          new URL(c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).origin,
          ...(c.PUBLIC_URL ? [] : [`http://127.0.0.1:${c.PORT}`]),
          ...(c.ALLOWED_ORIGINS ?? []),
        ]),
      ],
      embeddedPgDir: c.EMBEDDED_PG_DIR ?? `${dataDir}/postgres`,
      uploadsDir: c.UPLOADS_DIR ?? `${dataDir}/uploads`,
      adminMfaRequired: c.ADMIN_MFA_REQUIRED ?? c.NODE_ENV === 'production',
    };
  });

export type AppConfig = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  constructor(readonly lines: string[]) {
    super(`Invalid configuration:\n${lines.map((l) => `  ${l}`).join('\n')}`);
  }
}

/** Parses the environment; throws ConfigError with one line per bad field. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // Empty strings mean "not set", so `FOO=` in a .env file falls back to the default.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
    );
  }
  return result.data;
}
