-- Decision 279 (step 4 of decision 268): a client becomes an organisation with members. Every
-- existing client gets an organisation WITH ITS OWN USER ID, so projects.client_id, the
-- specification's /users/clients/{id} and every cache key keep their values, and becomes that
-- organisation's admin member: same username, same password, same sessions.
CREATE TABLE IF NOT EXISTS "client_organisations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "client_organisations" ("id", "name", "status", "archived_at", "created_at")
  SELECT "id", "name", "status", "archived_at", "created_at" FROM "users" WHERE "role" = 'client'
  ON CONFLICT ("id") DO NOTHING;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "organisation_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "member_role" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "removed_at" timestamp with time zone;--> statement-breakpoint
UPDATE "users" SET "organisation_id" = "id", "member_role" = 'admin' WHERE "role" = 'client' AND "organisation_id" IS NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_organisation_id_client_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."client_organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_organisation_idx" ON "users" USING btree ("organisation_id");--> statement-breakpoint
-- 'is not null' is needed: NULL IN (...) is unknown, and a CHECK lets an unknown result pass (decision 272).
ALTER TABLE "users" ADD CONSTRAINT "users_member_role_check" CHECK (("users"."role" = 'client' and "users"."member_role" is not null and "users"."member_role" in ('admin', 'approver', 'member', 'finance') and "users"."organisation_id" is not null) or ("users"."role" <> 'client' and "users"."member_role" is null and "users"."organisation_id" is null));--> statement-breakpoint
-- Same values on both sides (the organisation has its client's id), so the swap changes no row.
ALTER TABLE "projects" DROP CONSTRAINT IF EXISTS "projects_client_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_client_id_client_organisations_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client_organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "project_member_limits" (
	"user_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	CONSTRAINT "project_member_limits_user_id_project_id_pk" PRIMARY KEY("user_id","project_id")
);
--> statement-breakpoint
ALTER TABLE "project_member_limits" ADD CONSTRAINT "project_member_limits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_member_limits" ADD CONSTRAINT "project_member_limits_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "project_member_limits_project_idx" ON "project_member_limits" USING btree ("project_id");
--> statement-breakpoint
-- A client row written without an organisation (staff creating a client, the seed, tests) founds its
-- own: same id, same name, status and archive time, and its founder is the admin member. One
-- statement, so the organisation and its first admin are made together or not at all.
CREATE OR REPLACE FUNCTION "users_found_organisation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "client_organisations" ("id", "name", "status", "archived_at", "created_at")
    VALUES (NEW."id", NEW."name", NEW."status", NEW."archived_at", NEW."created_at");
  NEW."organisation_id" := NEW."id";
  NEW."member_role" := coalesce(NEW."member_role", 'admin');
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_found_organisation" BEFORE INSERT ON "users"
  FOR EACH ROW WHEN (NEW."role" = 'client' AND NEW."organisation_id" IS NULL) EXECUTE FUNCTION "users_found_organisation"();--> statement-breakpoint
-- The specification's Client is read from the founder's row (its id is the organisation's); the
-- organisation row follows its name, status and archive time in the same statement.
CREATE OR REPLACE FUNCTION "users_mirror_organisation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "client_organisations" SET "name" = NEW."name", "status" = NEW."status", "archived_at" = NEW."archived_at" WHERE "id" = NEW."id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_mirror_organisation" AFTER UPDATE OF "name", "status", "archived_at" ON "users"
  FOR EACH ROW WHEN (NEW."id" = NEW."organisation_id") EXECUTE FUNCTION "users_mirror_organisation"();
