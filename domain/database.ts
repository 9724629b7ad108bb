// The app's domain model (issue 27): replies held through a full disk, the database's health and its
// backups (issue 25). Types only.
import type { Millis } from './messages.ts';

// issue 25: replies kept through a full disk
/** What the app holds of the replies it received but could not store yet ('inbox:held'). */
export interface ReplyHold {
  /** True while anything is held or no new messages are collected (the gateway keeps them). */
  held: boolean;
  /** Answers received and not yet stored (on disk in the spool, or in memory). */
  answers: number;
  /** Bytes of them in memory only (lost if the app stops before space returns). */
  inMemoryBytes: number;
  /** Why: "the disk is full (…)", or null. */
  reason: string | null;
}

// issue 25: database health and backups
/** A checked copy of the database in the data folder's backups/ (main/store/backups.ts). */
export interface DatabaseBackup {
  file: string;
  at: Millis;
  /** "daily", "before-migration-16", "manual". */
  reason: string;
  bytes: number;
}

/**
 * Issue 25: the last backup that failed (daily, before a migration, or asked for), until one is
 * written and checked again: shown in a banner and in Settings ('database:backup').
 */
export interface DatabaseBackupFailure {
  /** "daily", "before-migration-46", "manual". */
  reason: string;
  at: Millis;
  /** What went wrong in words: "the disk is full", "the backups folder cannot be written", … */
  problem: string;
  /** The error as the system or SQLite gave it. */
  detail: string;
}

/** The database at start: served ('ok'), or damaged and not served until the user chooses. */
export interface DatabaseStatus {
  state: 'ok' | 'damaged';
  /** The database file. */
  file: string;
  /** SQLite's words for what is wrong (damaged only). */
  problem: string | null;
  /** Checked backups, newest first. */
  backups: DatabaseBackup[];
  /** Where a damaged file was kept (renamed beside the database) after a restore or a new start. */
  keptAs: string | null;
  /** Issue 25: the folder the backups are written to ("<data folder>/backups"). */
  backupsFolder: string;
  /** Issue 25: the last backup failed (and none has been written since), else null. */
  backupFailed: DatabaseBackupFailure | null;
}

/** What "export what can still be read" wrote. */
export interface DatabaseExport {
  folder: string;
  messages: number;
  contacts: number;
  /** Damaged stretches stepped over (their rows are lost). */
  skipped: number;
  problems: string[];
}
