-- Decision 258: last activity stored, so the activity order of the client and project lists reads an
-- index instead of computing every client's activity per request. Same meaning as the expressions it
-- replaces (clients.service.ts CLIENT_ACTIVITY, projects.service.ts PROJECT_ACTIVITY before 0021):
--   project: greatest(its updated_at, its newest message's created_at, its newest report's created_at)
--   client:  greatest(its updated_at, over its projects greatest(project updated_at, newest message))
--            (reports count for the project, not the client, as before)
-- greatest() skips nulls, so with no message or report the fallback is the row's own updated_at.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "last_activity_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN IF NOT EXISTS "last_activity_at" timestamp with time zone;--> statement-breakpoint
UPDATE "projects" p SET "last_activity_at" = greatest(p."updated_at",
  (SELECT max(m."created_at") FROM "messages" m WHERE m."project_id" = p."id"),
  (SELECT max(r."created_at") FROM "progress_reports" r WHERE r."project_id" = p."id"));--> statement-breakpoint
UPDATE "users" u SET "last_activity_at" = greatest(u."updated_at",
  (SELECT max(greatest(p."updated_at", (SELECT max(m."created_at") FROM "messages" m WHERE m."project_id" = p."id")))
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
-- A project written: its client's activity reaches the project's updated_at. Per statement, over the
-- rows written, so a load of many projects is one update; the WHERE leaves a newer time alone and,
-- re-checked on the newest row version under a concurrent write, never moves it backwards.
CREATE OR REPLACE FUNCTION "projects_client_last_activity"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" u SET "last_activity_at" = n."at"
    FROM (SELECT "client_id", max("updated_at") AS "at" FROM "written_projects" GROUP BY "client_id") n
    WHERE u."id" = n."client_id" AND (u."last_activity_at" IS NULL OR u."last_activity_at" < n."at");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "projects_client_last_activity_insert" AFTER INSERT ON "projects"
  REFERENCING NEW TABLE AS "written_projects" FOR EACH STATEMENT EXECUTE FUNCTION "projects_client_last_activity"();--> statement-breakpoint
CREATE TRIGGER "projects_client_last_activity_update" AFTER UPDATE ON "projects"
  REFERENCING NEW TABLE AS "written_projects" FOR EACH STATEMENT EXECUTE FUNCTION "projects_client_last_activity"();--> statement-breakpoint
-- A message sent: its project and the project's client.
CREATE OR REPLACE FUNCTION "messages_last_activity"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "projects" p SET "last_activity_at" = n."at"
    FROM (SELECT "project_id", max("created_at") AS "at" FROM "new_messages" GROUP BY "project_id") n
    WHERE p."id" = n."project_id" AND (p."last_activity_at" IS NULL OR p."last_activity_at" < n."at");
  UPDATE "users" u SET "last_activity_at" = n."at"
    FROM (SELECT p."client_id", max(m."created_at") AS "at" FROM "new_messages" m JOIN "projects" p ON p."id" = m."project_id" GROUP BY p."client_id") n
    WHERE u."id" = n."client_id" AND (u."last_activity_at" IS NULL OR u."last_activity_at" < n."at");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "messages_last_activity" AFTER INSERT ON "messages"
  REFERENCING NEW TABLE AS "new_messages" FOR EACH STATEMENT EXECUTE FUNCTION "messages_last_activity"();--> statement-breakpoint
-- A progress report added: its project (not the client, as before).
CREATE OR REPLACE FUNCTION "reports_last_activity"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "projects" p SET "last_activity_at" = n."at"
    FROM (SELECT "project_id", max("created_at") AS "at" FROM "new_reports" GROUP BY "project_id") n
    WHERE p."id" = n."project_id" AND (p."last_activity_at" IS NULL OR p."last_activity_at" < n."at");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "reports_last_activity" AFTER INSERT ON "progress_reports"
  REFERENCING NEW TABLE AS "new_reports" FOR EACH STATEMENT EXECUTE FUNCTION "reports_last_activity"();--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_clients_activity_idx" ON "users" USING btree ("role",("archived_at" is null),"last_activity_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "projects_client_activity_idx" ON "projects" USING btree ("client_id",("archived_at" is null),"last_activity_at","id");
