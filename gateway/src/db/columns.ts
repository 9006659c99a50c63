import { timestamp } from 'drizzle-orm/pg-core';

/** Columns many tables have, declared the same way in every schema file (db/schema.ts gathers them). */
export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
