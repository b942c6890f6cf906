ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN IF NOT EXISTS "archived_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_clients_list_idx" ON "users" USING btree ("role",("archived_at" is null),"created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "projects_client_list_idx" ON "projects" USING btree ("client_id",("archived_at" is null),"created_at");