-- One-time tokens may also be sign-in links (auth/sign-in-link.ts): e-mailed instead of a session
-- while an account's password-guessing limit is reached.
ALTER TABLE "one_time_tokens" DROP CONSTRAINT "one_time_tokens_purpose_check";--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD CONSTRAINT "one_time_tokens_purpose_check" CHECK ("one_time_tokens"."purpose" in ('password_reset', 'email_confirmation', 'email_change', 'sign_in_link'));
