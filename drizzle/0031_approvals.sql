CREATE TABLE "approval_reminders" (
	"user_id" uuid NOT NULL,
	"sent_on" date NOT NULL,
	"request_ids" uuid[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "approval_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"subject_type" text NOT NULL,
	"subject_key" text NOT NULL,
	"report_id" uuid,
	"timeline_id" uuid,
	"task_index" integer,
	"document_version_id" uuid,
	"subject_title" text NOT NULL,
	"subject_version" text NOT NULL,
	"subject_sha256" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"due_on" date NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" uuid,
	"requested_by_name" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" uuid,
	"decided_by_name" text,
	"decided_at" timestamp with time zone,
	"decided_address" text,
	"decision_comment" text,
	"decided_sha256" text,
	"closed_at" timestamp with time zone,
	"closed_by" uuid,
	CONSTRAINT "approval_requests_subject_check" CHECK (("approval_requests"."subject_type" = 'report' and "approval_requests"."report_id" is not null) or ("approval_requests"."subject_type" = 'milestone' and "approval_requests"."timeline_id" is not null and "approval_requests"."task_index" is not null) or ("approval_requests"."subject_type" = 'document' and "approval_requests"."document_version_id" is not null)),
	CONSTRAINT "approval_requests_decision_check" CHECK (("approval_requests"."status" in ('approved', 'rejected')) = ("approval_requests"."decided_at" is not null and "approval_requests"."decided_sha256" is not null))
);
--> statement-breakpoint
ALTER TABLE "approval_reminders" ADD CONSTRAINT "approval_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_report_id_progress_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."progress_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_timeline_id_gantt_charts_id_fk" FOREIGN KEY ("timeline_id") REFERENCES "public"."gantt_charts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_document_version_id_document_versions_id_fk" FOREIGN KEY ("document_version_id") REFERENCES "public"."document_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "approval_reminders_person_day_unique" ON "approval_reminders" USING btree ("user_id","sent_on");--> statement-breakpoint
CREATE INDEX "approval_requests_project_idx" ON "approval_requests" USING btree ("project_id","requested_at");--> statement-breakpoint
CREATE INDEX "approval_requests_open_idx" ON "approval_requests" USING btree ("status","due_on");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_requests_live_subject_unique" ON "approval_requests" USING btree ("subject_key") WHERE "approval_requests"."status" in ('pending', 'approved');