CREATE TABLE "invoice_reminders" (
	"invoice_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"sent_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_reminders_pk" PRIMARY KEY("invoice_id","kind"),
	CONSTRAINT "invoice_reminders_kind" CHECK ("invoice_reminders"."kind" in ('due_soon', 'overdue'))
);
--> statement-breakpoint
ALTER TABLE "invoice_reminders" ADD CONSTRAINT "invoice_reminders_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;