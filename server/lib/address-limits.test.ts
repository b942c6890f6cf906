import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../tests/helpers/chat.ts';
import { formToken, multipartBody } from '../../tests/helpers/forms.ts';
import { createTestApp, createUser, TEST_PASSWORD, type TestApp } from '../../tests/helpers/test-app.ts';
import { ADDRESS_FAILURE_LIMIT } from '../modules/auth/login-attempts.service.ts';
import { base32Decode, totp } from '../modules/auth/totp.ts';
import { CHAT_RATE_LIMITS } from '../modules/chat/chat.routes.ts';
import { CSP_REPORT_RATE_LIMIT } from '../modules/csp-report/csp-report.routes.ts';
import { FORM_RATE_LIMITS } from './form-guard.ts';
import { addressLimitKey } from './rate-limit.ts';
import { VENDOR_REQUIRED_FIELDS } from '../../tests/helpers/vendor-fields.ts';

// Decision 191: every per-address limit counts an IPv6 visitor by their /64 (one subscriber line or
// phone holds all of it) and an IPv4-mapped IPv6 address as its IPv4 address. Each limit is tried
// with many addresses of one /64 arriving through our trusted proxy.

const PROXY = '10.9.0.1';
const ORIGIN = 'http://localhost:3000';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ TRUSTED_PROXY_CIDRS: PROXY, ADMIN_MFA_REQUIRED: 'true', STAFF_EMAIL: 'staff@example.test' });
});
afterAll(async () => t.close());

/** Addresses ::1, ::2, ... of the /64 `2001:db8:28:<net>::/64`. */
const inNet = (net: number, n: number) => Array.from({ length: n }, (_, i) => `2001:db8:28:${net.toString(16)}::${(i + 1).toString(16)}`);
const viaProxy = (address: string) => ({ remoteAddress: PROXY, headers: { 'x-forwarded-for': `${address}, ${PROXY}`, origin: ORIGIN } });
const statuses = (codes: number[]) => codes.reduce<Record<number, number>>((acc, c) => ({ ...acc, [c]: (acc[c] ?? 0) + 1 }), {});

describe('the limit key of an address', () => {
  it('is the /64 of an IPv6 address however it is written, the IPv4 address of a mapped one, an IPv4 address as it is', () => {
    expect(addressLimitKey('2001:db8:28:1::1')).toBe('2001:db8:28:1::/64');
    expect(addressLimitKey('2001:0DB8:0028:0001:ffff:ffff:ffff:ffff')).toBe('2001:db8:28:1::/64');
    expect(addressLimitKey('[2001:db8:28:1::c]')).toBe('2001:db8:28:1::/64');
    expect(addressLimitKey('2001:db8:28:2::1')).toBe('2001:db8:28:2::/64');
    expect(addressLimitKey('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(addressLimitKey('::ffff:cb00:7105')).toBe('203.0.113.5');
    expect(addressLimitKey('203.0.113.5')).toBe('203.0.113.5');
    expect(addressLimitKey('not an address')).toBe('not an address');
  });
});

describe('every per-address limit counts one /64 as one visitor', () => {
  it(`forms: ${FORM_RATE_LIMITS.contact.limit} contact messages an hour from one /64, and a mapped IPv4 address counts with its IPv4 one`, async () => {
    const send = async (address: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/contact',
        payload: { formToken: await formToken(t, 'contact'), homepageUrl: '', name: 'Ada Obi', email: 'ada@example.test', phone: '', company: '', message: 'A quote, please.' },
        ...viaProxy(address),
      });
    const codes: number[] = [];
    for (const address of inNet(1, 12)) codes.push((await send(address)).statusCode);
    expect(statuses(codes)).toEqual({ 200: FORM_RATE_LIMITS.contact.limit, 429: 12 - FORM_RATE_LIMITS.contact.limit });
    // The next /64 is someone else.
    expect((await send('2001:db8:28:2::1')).statusCode).toBe(200);
    const mixed: number[] = [];
    for (let i = 0; i < 3; i++) mixed.push((await send('203.0.113.60')).statusCode, (await send('::ffff:203.0.113.60')).statusCode);
    expect(statuses(mixed)).toEqual({ 200: FORM_RATE_LIMITS.contact.limit, 429: 1 });
  });

  it(`uploads: ${FORM_RATE_LIMITS.vendor.limit} vendor registrations an hour from one /64`, async () => {
    const codes: number[] = [];
    for (const address of inNet(3, FORM_RATE_LIMITS.vendor.limit + 2)) {
      const body = await multipartBody({
        formToken: await formToken(t, 'vendor'),
        homepageUrl: '',
        ...VENDOR_REQUIRED_FIELDS,
        companyEmail: `v-${codes.length}@example.test`,
        contactPersonEmail: `v-${codes.length}@example.test`,
      });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/vendors/applications',
        payload: body.payload,
        remoteAddress: PROXY,
        headers: { ...body.headers, 'x-forwarded-for': address },
      });
      codes.push(res.statusCode);
    }
    expect(statuses(codes)).toEqual({ 200: FORM_RATE_LIMITS.vendor.limit, 429: 2 });
  });

  it(`chat: ${CHAT_RATE_LIMITS.perMinute.limit} questions a minute from one /64`, async () => {
    const codes: number[] = [];
    for (const address of inNet(4, 10)) {
      const res = await t.app.inject({ method: 'POST', url: '/api/chat', payload: { question: 'Which certifications do you hold?' }, ...viaProxy(address) });
      codes.push(res.statusCode);
    }
    expect(statuses(codes)).toEqual({ 200: CHAT_RATE_LIMITS.perMinute.limit, 429: 10 - CHAT_RATE_LIMITS.perMinute.limit });
    // Another /64 still asks.
    expect((await ask(t.app, 'Which certifications do you hold?', { ip: '2001:db8:28:5::1' })).status).toBe(200);
  });

  it(`CSP reports: ${CSP_REPORT_RATE_LIMIT.limit} a minute from one /64`, async () => {
    const body = JSON.stringify({ 'csp-report': { 'document-uri': `${ORIGIN}/`, 'effective-directive': 'img-src', 'violated-directive': 'img-src', 'blocked-uri': 'inline' } });
    const codes: number[] = [];
    for (const address of inNet(6, CSP_REPORT_RATE_LIMIT.limit + 3)) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/csp-report',
        payload: body,
        remoteAddress: PROXY,
        headers: { 'content-type': 'application/csp-report', origin: ORIGIN, 'x-forwarded-for': address },
      });
      codes.push(res.statusCode);
    }
    expect(statuses(codes)).toEqual({ 204: CSP_REPORT_RATE_LIMIT.limit, 429: 3 });
  });

  it(`sign-in: ${ADDRESS_FAILURE_LIMIT} failed sign-ins in 15 minutes from one /64, then refused without a check`, async () => {
    const codes: number[] = [];
    for (const [i, address] of inNet(7, 40).entries()) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: `nobody-${i}`, password: 'wrong password 1' }, ...viaProxy(address) });
      codes.push(res.statusCode);
    }
    expect(statuses(codes)).toEqual({ 401: ADDRESS_FAILURE_LIMIT, 429: 40 - ADDRESS_FAILURE_LIMIT });
  });

  it('second factor: a /64 that used up its failures gets no code checked either', async () => {
    t.clock.advance(60 * 60_000);
    const admin = await createUser(t, { role: 'admin' });
    const adminLogin = (address: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', payload: { email: admin.email, password: TEST_PASSWORD }, ...viaProxy(address) });
    const post = (url: string, token: string, address: string, payload: object = {}) =>
      t.app.inject({ method: 'POST', url, payload, remoteAddress: PROXY, headers: { cookie: `sid=${token}`, origin: ORIGIN, 'x-forwarded-for': address } });
    const pending = (await adminLogin('203.0.113.70')).json().token;
    const { secret } = (await post('/api/auth/mfa/enrolment', pending, '203.0.113.70')).json();
    expect((await post('/api/auth/mfa/enrolment/confirm', pending, '203.0.113.70', { code: totp(base32Decode(secret), t.clock.now().getTime()) })).statusCode).toBe(200);
    t.clock.advance(30_000);
    const [first, ...others] = inNet(8, ADDRESS_FAILURE_LIMIT + 1);
    const next = (await adminLogin(first)).json().token;
    for (const [i, address] of others.entries()) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: `ghost-${i}`, password: 'wrong password 1' }, ...viaProxy(address) });
      expect(res.statusCode).toBe(401);
    }
    const code = totp(base32Decode(secret), t.clock.now().getTime());
    expect((await post('/api/auth/mfa/verify', next, '2001:db8:28:8::ffff', { code })).statusCode).toBe(429);
  });
});
