CREATE TABLE "newsletter_issues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"sent_by_id" uuid,
	"sent_by_name" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"recipient_count" integer NOT NULL,
	"idempotency_key" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "newsletter_issues" ADD CONSTRAINT "newsletter_issues_sent_by_id_users_id_fk" FOREIGN KEY ("sent_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_issues_idempotency_unique" ON "newsletter_issues" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "newsletter_issues_sent_at_idx" ON "newsletter_issues" USING btree ("sent_at");