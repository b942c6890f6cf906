-- Hand-written (decision 150): rows written outside the app may hold microseconds; they keep the
-- millisecond the API has always shown them at (truncated, as the old order did), not a rounded one.
UPDATE "messages" SET "created_at" = date_trunc('milliseconds', "created_at") WHERE "created_at" <> date_trunc('milliseconds', "created_at");--> statement-breakpoint
DROP INDEX "messages_project_idx";--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "created_at" SET DATA TYPE timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "created_at" SET DEFAULT now();--> statement-breakpoint
CREATE INDEX "messages_project_created_id_idx" ON "messages" USING btree ("project_id","created_at","id");