ALTER TABLE "messages" ADD COLUMN IF NOT EXISTS "edited_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN IF NOT EXISTS "deleted_at" timestamp (3) with time zone;
