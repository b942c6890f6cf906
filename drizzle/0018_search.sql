-- Search (decision 250): generated tsvector columns, kept by the database, with GIN indexes; trigram
-- indexes for names, e-mails and codes found by any part. Adding a stored generated column rewrites
-- each table once, so existing rows get their vectors then. pg_trgm ships with PostgreSQL (contrib)
-- and is a trusted extension since PostgreSQL 13: the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "progress_reports" ADD COLUMN IF NOT EXISTS "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', project_code || ' ' || project || ' ' || team || ' ' || tasks || ' ' || progress || ' ' || challenges || ' ' || action_taken || ' ' || help_needed || ' ' || next_steps || ' ' || feedback || ' ' || conclusion)) STORED;--> statement-breakpoint
ALTER TABLE "vendor_applications" ADD COLUMN IF NOT EXISTS "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', reference || ' ' || company_name || ' ' || company_email || ' ' || company_address || ' ' || contact_person_name || ' ' || contact_person_email || ' ' || business_type || ' ' || certifications || ' ' || experience || ' ' || "references")) STORED;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN IF NOT EXISTS "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', name || ' ' || email || ' ' || company || ' ' || message)) STORED;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN IF NOT EXISTS "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', coalesce(subject, '') || ' ' || coalesce(text, ''))) STORED;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_name_trgm_idx" ON "users" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_username_trgm_idx" ON "users" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "projects_name_trgm_idx" ON "projects" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "projects_code_trgm_idx" ON "projects" USING gin ("code" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "progress_reports_search_idx" ON "progress_reports" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "vendor_applications_search_idx" ON "vendor_applications" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contact_messages_search_idx" ON "contact_messages" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "messages_search_idx" ON "messages" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "messages_created_idx" ON "messages" USING btree ("created_at","id");