CREATE TABLE IF NOT EXISTS "report_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"report_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"written_by" uuid,
	"written_at" timestamp with time zone NOT NULL,
	"date" date NOT NULL,
	"project_code" text NOT NULL,
	"project" text NOT NULL,
	"team" text NOT NULL,
	"tasks" text NOT NULL,
	"progress" text NOT NULL,
	"challenges" text NOT NULL,
	"action_taken" text NOT NULL,
	"help_needed" text NOT NULL,
	"next_steps" text NOT NULL,
	"feedback" text NOT NULL,
	"conclusion" text NOT NULL,
	"image_names" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "progress_reports" ADD COLUMN IF NOT EXISTS "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "progress_reports" ADD COLUMN IF NOT EXISTS "corrected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "progress_reports" ADD COLUMN IF NOT EXISTS "corrected_by" uuid;--> statement-breakpoint
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_report_id_progress_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."progress_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_written_by_users_id_fk" FOREIGN KEY ("written_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "report_versions_report_version_unique" ON "report_versions" USING btree ("report_id","version");--> statement-breakpoint
ALTER TABLE "progress_reports" ADD CONSTRAINT "progress_reports_corrected_by_users_id_fk" FOREIGN KEY ("corrected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;