CREATE TABLE "change_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"cost_kobo" bigint NOT NULL,
	"schedule_days" integer NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"withdrawn_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"decided_by_name" text,
	"decided_from_ip" text,
	"decision_comment" text,
	"budget_before_kobo" bigint,
	"budget_after_kobo" bigint,
	"end_date_before" date,
	"end_date_after" date,
	CONSTRAINT "change_orders_decided_has_time" CHECK (("change_orders"."status" in ('approved', 'declined')) = ("change_orders"."decided_at" is not null)),
	CONSTRAINT "change_orders_approved_records_move" CHECK ("change_orders"."status" <> 'approved' or "change_orders"."budget_after_kobo" is not null)
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "budget_kobo" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "original_budget_kobo" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "change_orders" ADD CONSTRAINT "change_orders_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_orders" ADD CONSTRAINT "change_orders_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_orders" ADD CONSTRAINT "change_orders_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "change_orders_project_number_unique" ON "change_orders" USING btree ("project_id","number");--> statement-breakpoint
CREATE INDEX "change_orders_project_idx" ON "change_orders" USING btree ("project_id","status");--> statement-breakpoint
-- Decision 294: the budget moves from numeric naira to bigint kobo exactly (numeric(16,2) times 100 is a whole number); the sum before any change order starts as the budget.
UPDATE "projects" SET "budget_kobo" = ("budget" * 100)::bigint, "original_budget_kobo" = ("budget" * 100)::bigint;--> statement-breakpoint
ALTER TABLE "projects" DROP COLUMN "budget";