CREATE TABLE IF NOT EXISTS "message_reads" (
	"message_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "message_reads_message_id_user_id_pk" PRIMARY KEY("message_id","user_id")
);
--> statement-breakpoint
DROP INDEX IF EXISTS "messages_unread_to_receiver_idx";--> statement-breakpoint
ALTER TABLE "message_reads" ADD CONSTRAINT "message_reads_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_reads" ADD CONSTRAINT "message_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "message_reads_user_idx" ON "message_reads" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "messages_to_receiver_idx" ON "messages" USING btree ("receiver_id","project_id","created_at","id") WHERE "messages"."receiver_id" is not null and "messages"."deleted_at" is null;--> statement-breakpoint
-- Decision 281: what the client has read so far stays read, now as that person's read. Today a
-- project's client is one person whose user id is projects.client_id; a staff message (receiver set)
-- marked read was read by them. When it was read is kept (the send time if no time was recorded).
INSERT INTO "message_reads" ("message_id", "user_id", "read_at")
SELECT m."id", p."client_id", coalesce(m."read_at", m."created_at")
FROM "messages" m JOIN "projects" p ON p."id" = m."project_id"
WHERE m."receiver_id" IS NOT NULL AND m."is_read"
ON CONFLICT DO NOTHING;
