-- Decision 258: last activity stored, so the activity order of the client and project lists reads an
-- index instead of computing every client's activity per request. Same meaning as the expressions it
-- replaces (clients.service.ts CLIENT_ACTIVITY, projects.service.ts PROJECT_ACTIVITY before 0021):
--   project: greatest(its updated_at, its newest message's created_at, its newest report's created_at)
--   client:  greatest(its updated_at, over its projects greatest(project updated_at, newest message,
--            newest report)): a report added is activity for the client too (decision 248's meaning)
-- greatest() skips nulls, so with no message or report the fallback is the row's own updated_at.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "last_activity_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN IF NOT EXISTS "last_activity_at" timestamp with time zone;--> statement-breakpoint
UPDATE "projects" p SET "last_activity_at" = greatest(p."updated_at",
  (SELECT max(m."created_at") FROM "messages" m WHERE m."project_id" = p."id"),
  (SELECT max(r."created_at") FROM "progress_reports" r WHERE r."project_id" = p."id"));--> statement-breakpoint
UPDATE "users" u SET "last_activity_at" = greatest(u."updated_at",
  (SELECT max(greatest(p."updated_at", (SELECT max(m."created_at") FROM "messages" m WHERE m."project_id" = p."id"),
     (SELECT max(r."created_at") FROM "progress_reports" r WHERE r."project_id" = p."id")))
     FROM "projects" p WHERE p."client_id" = u."id"));--> statement-breakpoint
-- A written row's own change counts; never earlier than it was (an out-of-order write cannot move it back).
CREATE OR REPLACE FUNCTION "last_activity_of_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."last_activity_at" := greatest(NEW."last_activity_at", NEW."updated_at",
    CASE WHEN TG_OP = 'UPDATE' THEN OLD."last_activity_at" END);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_last_activity_of_row" BEFORE INSERT OR UPDATE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "last_activity_of_row"();--> statement-breakpoint
CREATE TRIGGER "projects_last_activity_of_row" BEFORE INSERT OR UPDATE ON "projects"
  FOR EACH ROW EXECUTE FUNCTION "last_activity_of_row"();--> statement-breakpoint
-- Raises the last activity of the rows of `target` (users or projects) named in `ids` to the
-- paired time in `ats`, the newest per row. The WHERE leaves a newer time alone and, re-checked on
-- the newest row version when a concurrent write got there first, never moves it backwards. One
-- update per statement however many rows it wrote, so a load of a million messages stays set-based.
CREATE OR REPLACE FUNCTION "raise_last_activity"("target" text, "ids" uuid[], "ats" timestamptz[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('UPDATE %I t SET "last_activity_at" = n."at"
    FROM (SELECT "id", max("at") AS "at" FROM unnest($1, $2) AS x("id", "at") GROUP BY "id") n
    WHERE t."id" = n."id" AND (t."last_activity_at" IS NULL OR t."last_activity_at" < n."at")', "target") USING "ids", "ats";
END $$;--> statement-breakpoint
-- A project written (added, changed, archived): its client's activity reaches its updated_at.
CREATE OR REPLACE FUNCTION "projects_client_last_activity"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM "raise_last_activity"('users', array_agg("client_id"), array_agg("updated_at")) FROM "new_rows"; RETURN NULL; END $$;--> statement-breakpoint
CREATE TRIGGER "projects_client_last_activity_insert" AFTER INSERT ON "projects"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "projects_client_last_activity"();--> statement-breakpoint
CREATE TRIGGER "projects_client_last_activity_update" AFTER UPDATE ON "projects"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "projects_client_last_activity"();--> statement-breakpoint
-- A message sent or a progress report added: its project (one function for both tables).
CREATE OR REPLACE FUNCTION "project_last_activity"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM "raise_last_activity"('projects', array_agg("project_id"), array_agg("created_at")) FROM "new_rows"; RETURN NULL; END $$;--> statement-breakpoint
-- A message sent or a report added: also the project's client.
CREATE OR REPLACE FUNCTION "client_last_activity"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "raise_last_activity"('users', array_agg(p."client_id"), array_agg(m."created_at"))
    FROM "new_rows" m JOIN "projects" p ON p."id" = m."project_id";
  RETURN NULL;
END $$;--> statement-breakpoint
-- Triggers of one event fire in name order: the project row is locked before the client row, as
-- when a project itself is written, so two writers never wait on each other crosswise.
CREATE TRIGGER "messages_last_activity_1_project" AFTER INSERT ON "messages"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "project_last_activity"();--> statement-breakpoint
CREATE TRIGGER "messages_last_activity_2_client" AFTER INSERT ON "messages"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "client_last_activity"();--> statement-breakpoint
CREATE TRIGGER "progress_reports_last_activity_1_project" AFTER INSERT ON "progress_reports"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "project_last_activity"();--> statement-breakpoint
CREATE TRIGGER "progress_reports_last_activity_2_client" AFTER INSERT ON "progress_reports"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "client_last_activity"();--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_clients_activity_idx" ON "users" USING btree ("role",("archived_at" is null),"last_activity_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "projects_client_activity_idx" ON "projects" USING btree ("client_id",("archived_at" is null),"last_activity_at","id");
