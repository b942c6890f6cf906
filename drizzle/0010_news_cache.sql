CREATE TABLE "news_cache" (
	"key" text PRIMARY KEY NOT NULL,
	"articles" jsonb NOT NULL,
	"fetched_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"last_attempt_at" timestamp with time zone
);
