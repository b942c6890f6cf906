ALTER TABLE "login_attempts" ADD COLUMN "address_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "login_attempts" ADD COLUMN "device" text;--> statement-breakpoint
-- Rows from before decision 191 count by their full address (IPv4 is its own key; they leave the 15-minute window soon).
UPDATE "login_attempts" SET "address_key" = left("ip", 64);--> statement-breakpoint
CREATE INDEX "login_attempts_address_key_idx" ON "login_attempts" USING btree ("address_key","at");--> statement-breakpoint
CREATE INDEX "login_attempts_device_idx" ON "login_attempts" USING btree ("device","at");