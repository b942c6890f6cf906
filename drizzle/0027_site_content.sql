CREATE TABLE IF NOT EXISTS "site_content_drafts" (
	"section" text PRIMARY KEY NOT NULL,
	"document" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	"saved_by" uuid,
	"saved_by_label" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "site_content_published" (
	"section" text PRIMARY KEY NOT NULL,
	"document" jsonb NOT NULL,
	"revision_id" uuid NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_by_label" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "site_content_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"section" text NOT NULL,
	"number" integer NOT NULL,
	"document" jsonb NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_by" uuid,
	"published_by_label" text NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "site_content_revisions_source_check" CHECK ("site_content_revisions"."source" in ('seed', 'publish', 'schedule'))
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "site_content_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"section" text NOT NULL,
	"document" jsonb NOT NULL,
	"publish_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"created_by_label" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"revision_id" uuid,
	CONSTRAINT "site_content_schedules_status_check" CHECK ("site_content_schedules"."status" in ('pending', 'done', 'cancelled'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "site_content_revisions_section_number_idx" ON "site_content_revisions" USING btree ("section","number");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "site_content_schedules_pending_idx" ON "site_content_schedules" USING btree ("section") WHERE "site_content_schedules"."status" = 'pending';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "site_content_schedules_due_idx" ON "site_content_schedules" USING btree ("publish_at") WHERE "site_content_schedules"."status" = 'pending';