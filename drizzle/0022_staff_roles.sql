-- Decision 272 (first slice of decision 268): every staff account has a role. Whoever was staff
-- before roles could do everything, so every existing admin becomes an owner; clients have none.
-- 'is not null' is needed: NULL IN (...) is unknown, and a CHECK lets an unknown result pass.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "staff_role" text;--> statement-breakpoint
UPDATE "users" SET "staff_role" = 'owner' WHERE "role" = 'admin' AND "staff_role" IS NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_staff_role_check" CHECK (("users"."role" = 'admin' and "users"."staff_role" is not null and "users"."staff_role" in ('owner', 'admin', 'project_manager', 'editor', 'support')) or ("users"."role" <> 'admin' and "users"."staff_role" is null));
