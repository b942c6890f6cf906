CREATE TABLE "change_order_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"change_order_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "change_order_attachments_storage_key_unique" UNIQUE("storage_key"),
	CONSTRAINT "change_order_attachments_size_range" CHECK ("change_order_attachments"."size_bytes" > 0 and "change_order_attachments"."size_bytes" <= 26214400),
	CONSTRAINT "change_order_attachments_sha256_hex" CHECK ("change_order_attachments"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "change_order_attachments" ADD CONSTRAINT "change_order_attachments_change_order_id_change_orders_id_fk" FOREIGN KEY ("change_order_id") REFERENCES "public"."change_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_order_attachments" ADD CONSTRAINT "change_order_attachments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "change_order_attachments_change_order_idx" ON "change_order_attachments" USING btree ("change_order_id","created_at");