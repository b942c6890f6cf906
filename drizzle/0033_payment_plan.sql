CREATE TABLE "credit_note_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"credit_note_id" uuid NOT NULL,
	"invoice_line_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"description" text NOT NULL,
	"net_kobo" bigint NOT NULL,
	"vat_kobo" bigint NOT NULL,
	CONSTRAINT "credit_note_lines_amounts" CHECK ("credit_note_lines"."net_kobo" > 0 and "credit_note_lines"."vat_kobo" >= 0)
);
--> statement-breakpoint
CREATE TABLE "credit_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"number" text,
	"number_year" integer,
	"number_seq" integer,
	"issue_date" date,
	"issued_at" timestamp with time zone,
	"issued_by" uuid,
	"reason" text NOT NULL,
	"net_kobo" bigint DEFAULT 0 NOT NULL,
	"vat_kobo" bigint DEFAULT 0 NOT NULL,
	"gross_kobo" bigint DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_notes_amounts" CHECK ("credit_notes"."net_kobo" >= 0 and "credit_notes"."vat_kobo" >= 0 and "credit_notes"."gross_kobo" = "credit_notes"."net_kobo" + "credit_notes"."vat_kobo"),
	CONSTRAINT "credit_notes_numbered_when_issued" CHECK (("credit_notes"."status" = 'issued') = ("credit_notes"."number" is not null)),
	CONSTRAINT "credit_notes_issued_complete" CHECK ("credit_notes"."status" <> 'issued' or ("credit_notes"."number_year" is not null and "credit_notes"."number_seq" is not null and "credit_notes"."issue_date" is not null and "credit_notes"."issued_at" is not null)),
	CONSTRAINT "credit_notes_reason" CHECK (length("credit_notes"."reason") > 0)
);
--> statement-breakpoint
CREATE TABLE "document_counters" (
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "document_counters_pk" PRIMARY KEY("series","year"),
	CONSTRAINT "document_counters_series" CHECK ("document_counters"."series" ~ '^[a-z][a-z_]{0,31}$'),
	CONSTRAINT "document_counters_year" CHECK ("document_counters"."year" between 2000 and 9999),
	CONSTRAINT "document_counters_last" CHECK ("document_counters"."last" >= 0)
);
--> statement-breakpoint
CREATE TABLE "finance_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"invoice_prefix" text DEFAULT 'INV' NOT NULL,
	"credit_note_prefix" text DEFAULT 'CN' NOT NULL,
	"vat_rate_bp" integer DEFAULT 750 NOT NULL,
	"payment_terms_days" integer DEFAULT 30 NOT NULL,
	"tax_id" text DEFAULT '' NOT NULL,
	"bank_name" text DEFAULT '' NOT NULL,
	"bank_account_name" text DEFAULT '' NOT NULL,
	"bank_account_number" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "finance_settings_one_row" CHECK ("finance_settings"."id" = 1),
	CONSTRAINT "finance_settings_prefixes" CHECK ("finance_settings"."invoice_prefix" ~ '^[A-Z][A-Z0-9]{0,7}$' and "finance_settings"."credit_note_prefix" ~ '^[A-Z][A-Z0-9]{0,7}$' and "finance_settings"."invoice_prefix" <> "finance_settings"."credit_note_prefix"),
	CONSTRAINT "finance_settings_vat_rate" CHECK ("finance_settings"."vat_rate_bp" between 0 and 10000),
	CONSTRAINT "finance_settings_terms" CHECK ("finance_settings"."payment_terms_days" between 0 and 365)
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"description" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_kobo" bigint NOT NULL,
	"vat_rate_bp" integer NOT NULL,
	"net_kobo" bigint NOT NULL,
	"vat_kobo" bigint NOT NULL,
	CONSTRAINT "invoice_lines_quantity_range" CHECK ("invoice_lines"."quantity" between 1 and 1000000),
	CONSTRAINT "invoice_lines_amounts" CHECK ("invoice_lines"."unit_price_kobo" >= 0 and "invoice_lines"."vat_rate_bp" between 0 and 10000),
	CONSTRAINT "invoice_lines_net_rule" CHECK ("invoice_lines"."net_kobo" = "invoice_lines"."quantity" * "invoice_lines"."unit_price_kobo"),
	CONSTRAINT "invoice_lines_vat_rule" CHECK ("invoice_lines"."vat_kobo" = floor(("invoice_lines"."net_kobo"::numeric * "invoice_lines"."vat_rate_bp" + 5000) / 10000))
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"milestone_id" uuid,
	"status" text DEFAULT 'draft' NOT NULL,
	"number" text,
	"number_year" integer,
	"number_seq" integer,
	"issue_date" date,
	"issued_at" timestamp with time zone,
	"issued_by" uuid,
	"due_date" date,
	"net_kobo" bigint DEFAULT 0 NOT NULL,
	"vat_kobo" bigint DEFAULT 0 NOT NULL,
	"gross_kobo" bigint DEFAULT 0 NOT NULL,
	"seller" jsonb,
	"buyer" jsonb,
	"bank" jsonb,
	"notes" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_amounts" CHECK ("invoices"."net_kobo" >= 0 and "invoices"."vat_kobo" >= 0 and "invoices"."gross_kobo" = "invoices"."net_kobo" + "invoices"."vat_kobo"),
	CONSTRAINT "invoices_numbered_when_issued" CHECK (("invoices"."status" = 'issued') = ("invoices"."number" is not null)),
	CONSTRAINT "invoices_issued_complete" CHECK ("invoices"."status" <> 'issued' or ("invoices"."number_year" is not null and "invoices"."number_seq" is not null and "invoices"."issue_date" is not null and "invoices"."due_date" is not null and "invoices"."issued_at" is not null and "invoices"."seller" is not null and "invoices"."buyer" is not null and "invoices"."bank" is not null)),
	CONSTRAINT "invoices_due_after_issue" CHECK ("invoices"."due_date" is null or "invoices"."issue_date" is null or "invoices"."due_date" >= "invoices"."issue_date")
);
--> statement-breakpoint
CREATE TABLE "payment_milestones" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"amount_kobo" bigint,
	"share_bp" integer,
	"due_date" date,
	"depends_on" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_milestones_amount_or_share" CHECK (("payment_milestones"."amount_kobo" is null) <> ("payment_milestones"."share_bp" is null)),
	CONSTRAINT "payment_milestones_amount_range" CHECK ("payment_milestones"."amount_kobo" is null or "payment_milestones"."amount_kobo" >= 0),
	CONSTRAINT "payment_milestones_share_range" CHECK ("payment_milestones"."share_bp" is null or "payment_milestones"."share_bp" between 1 and 10000)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"received_on" date NOT NULL,
	"method" text NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"paystack_reference" text,
	"note" text DEFAULT '' NOT NULL,
	"recorded_by" uuid,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"voided_at" timestamp with time zone,
	"voided_by" uuid,
	"void_reason" text,
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount_kobo" > 0),
	CONSTRAINT "payments_paystack_has_reference" CHECK (("payments"."method" = 'paystack') = ("payments"."paystack_reference" is not null)),
	CONSTRAINT "payments_void_complete" CHECK (("payments"."voided_at" is null) = ("payments"."void_reason" is null))
);
--> statement-breakpoint
CREATE TABLE "paystack_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"invoice_id" uuid NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"status" text DEFAULT 'initialized' NOT NULL,
	"paid_amount_kobo" bigint,
	"paystack_id" text,
	"payment_id" uuid,
	"last_event" text,
	"last_payload" jsonb,
	"initialized_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verified_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "paystack_transactions_amounts" CHECK ("paystack_transactions"."amount_kobo" > 0 and ("paystack_transactions"."paid_amount_kobo" is null or "paystack_transactions"."paid_amount_kobo" >= 0)),
	CONSTRAINT "paystack_transactions_paid_has_payment" CHECK (("paystack_transactions"."status" = 'paid') = ("paystack_transactions"."payment_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "credit_note_lines" ADD CONSTRAINT "credit_note_lines_credit_note_id_credit_notes_id_fk" FOREIGN KEY ("credit_note_id") REFERENCES "public"."credit_notes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_note_lines" ADD CONSTRAINT "credit_note_lines_invoice_line_id_invoice_lines_id_fk" FOREIGN KEY ("invoice_line_id") REFERENCES "public"."invoice_lines"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_issued_by_users_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_settings" ADD CONSTRAINT "finance_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_milestone_id_payment_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."payment_milestones"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_issued_by_users_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_milestones" ADD CONSTRAINT "payment_milestones_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_milestones" ADD CONSTRAINT "payment_milestones_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_voided_by_users_id_fk" FOREIGN KEY ("voided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paystack_transactions" ADD CONSTRAINT "paystack_transactions_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paystack_transactions" ADD CONSTRAINT "paystack_transactions_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paystack_transactions" ADD CONSTRAINT "paystack_transactions_initialized_by_users_id_fk" FOREIGN KEY ("initialized_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_note_lines_note_position_unique" ON "credit_note_lines" USING btree ("credit_note_id","position");--> statement-breakpoint
CREATE INDEX "credit_note_lines_invoice_line_idx" ON "credit_note_lines" USING btree ("invoice_line_id");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_number_unique" ON "credit_notes" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_year_seq_unique" ON "credit_notes" USING btree ("number_year","number_seq");--> statement-breakpoint
CREATE INDEX "credit_notes_invoice_idx" ON "credit_notes" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_lines_invoice_position_unique" ON "invoice_lines" USING btree ("invoice_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_unique" ON "invoices" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_year_seq_unique" ON "invoices" USING btree ("number_year","number_seq");--> statement-breakpoint
CREATE INDEX "invoices_project_idx" ON "invoices" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "invoices_milestone_idx" ON "invoices" USING btree ("milestone_id");--> statement-breakpoint
CREATE INDEX "payment_milestones_project_idx" ON "payment_milestones" USING btree ("project_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_paystack_reference_unique" ON "payments" USING btree ("paystack_reference");--> statement-breakpoint
CREATE INDEX "payments_invoice_idx" ON "payments" USING btree ("invoice_id","received_on");--> statement-breakpoint
CREATE UNIQUE INDEX "paystack_transactions_reference_unique" ON "paystack_transactions" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "paystack_transactions_payment_unique" ON "paystack_transactions" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "paystack_transactions_invoice_idx" ON "paystack_transactions" USING btree ("invoice_id");--> statement-breakpoint
-- Issued invoices and credit notes never change (decision 298): the database refuses to update or
-- delete one, and to add, change or remove a line of one. The draft → issued update itself passes
-- (its OLD row is a draft). A backup's restore copies issued documents before their lines, inside a
-- transaction that sets portal.restoring (server/backup/backup.ts): only then may lines be added.
CREATE OR REPLACE FUNCTION issued_documents_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'issued' THEN
    RAISE EXCEPTION '% % is issued and cannot change: correct it with a credit note', TG_ARGV[0], OLD.number USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$;--> statement-breakpoint
CREATE TRIGGER invoices_issued_frozen BEFORE UPDATE OR DELETE ON "invoices" FOR EACH ROW EXECUTE FUNCTION issued_documents_frozen('invoice');--> statement-breakpoint
CREATE TRIGGER credit_notes_issued_frozen BEFORE UPDATE OR DELETE ON "credit_notes" FOR EACH ROW EXECUTE FUNCTION issued_documents_frozen('credit note');--> statement-breakpoint
-- TG_ARGV: the parent table, the lines' column naming it, and what to call the document. FOR SHARE waits for an issue under way.
CREATE OR REPLACE FUNCTION issued_document_lines_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  parent_status text;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    EXECUTE format('SELECT status FROM %I WHERE id = ($1).%I FOR SHARE', TG_ARGV[0], TG_ARGV[1]) INTO parent_status USING OLD;
    IF parent_status = 'issued' THEN
      RAISE EXCEPTION 'a line of an issued % cannot change: correct it with a credit note', TG_ARGV[2] USING ERRCODE = 'integrity_constraint_violation';
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND coalesce(current_setting('portal.restoring', true), '') <> 'on' THEN
    EXECUTE format('SELECT status FROM %I WHERE id = ($1).%I FOR SHARE', TG_ARGV[0], TG_ARGV[1]) INTO parent_status USING NEW;
    IF parent_status = 'issued' THEN
      RAISE EXCEPTION 'an issued % cannot take new lines', TG_ARGV[2] USING ERRCODE = 'integrity_constraint_violation';
    END IF;
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$;--> statement-breakpoint
CREATE TRIGGER invoice_lines_frozen BEFORE INSERT OR UPDATE OR DELETE ON "invoice_lines" FOR EACH ROW EXECUTE FUNCTION issued_document_lines_frozen('invoices', 'invoice_id', 'invoice');--> statement-breakpoint
CREATE TRIGGER credit_note_lines_frozen BEFORE INSERT OR UPDATE OR DELETE ON "credit_note_lines" FOR EACH ROW EXECUTE FUNCTION issued_document_lines_frozen('credit_notes', 'credit_note_id', 'credit note');
