-- Issue 45, decision 300: the published website content loses every link that is plainly no web link
-- (anything but http:// or https:// followed by a host, or a link holding a space or a control
-- character): the company's social links and the team members' profile links. The rest of each
-- record stays. The start-up check (server/modules/site-content/unsafe-links.ts) then applies the
-- exact rule (credentials, invisible characters, length) and replaces a refused company address.
UPDATE "site_content_published" p
SET "document" = jsonb_set(p."document", '{social}', (
  SELECT coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb)
  FROM jsonb_each(p."document"->'social') e
  WHERE jsonb_typeof(e.value) = 'string' AND (e.value #>> '{}') ~* '^[[:space:]]*https?://[^/\\[:space:][:cntrl:]@][^\\[:space:][:cntrl:]]*[[:space:]]*$'
))
WHERE p."section" = 'company'
  AND jsonb_typeof(p."document"->'social') = 'object'
  AND EXISTS (
    SELECT 1 FROM jsonb_each(p."document"->'social') e
    WHERE jsonb_typeof(e.value) <> 'string' OR NOT ((e.value #>> '{}') ~* '^[[:space:]]*https?://[^/\\[:space:][:cntrl:]@][^\\[:space:][:cntrl:]]*[[:space:]]*$')
  );--> statement-breakpoint
UPDATE "site_content_published" p
SET "document" = jsonb_set(p."document", '{members}', (
  SELECT jsonb_agg(
    CASE WHEN jsonb_typeof(m.value) <> 'object' THEN m.value ELSE m.value - ARRAY(
      SELECT k FROM unnest(ARRAY['website', 'linkedin', 'twitter', 'whatsapp']) k
      WHERE m.value ? k AND (jsonb_typeof(m.value->k) <> 'string' OR NOT ((m.value->>k) ~* '^[[:space:]]*https?://[^/\\[:space:][:cntrl:]@][^\\[:space:][:cntrl:]]*[[:space:]]*$'))
    ) END
    ORDER BY m.n
  )
  FROM jsonb_array_elements(p."document"->'members') WITH ORDINALITY m(value, n)
))
WHERE p."section" = 'team'
  AND jsonb_typeof(p."document"->'members') = 'array'
  AND EXISTS (
    SELECT 1 FROM jsonb_array_elements(p."document"->'members') m(value), unnest(ARRAY['website', 'linkedin', 'twitter', 'whatsapp']) k
    WHERE jsonb_typeof(m.value) = 'object' AND m.value ? k
      AND (jsonb_typeof(m.value->k) <> 'string' OR NOT ((m.value->>k) ~* '^[[:space:]]*https?://[^/\\[:space:][:cntrl:]@][^\\[:space:][:cntrl:]]*[[:space:]]*$'))
  );
