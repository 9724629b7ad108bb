// Types of eslint.config.js for the tests that read its allow-list (test/lint/boundaries.test.ts).
import type { Linter } from 'eslint';

/** Per folder (or file): the folders and files of the repository it may import, and those as types only. */
export declare const LAYERS: Record<string, { may: string[]; types?: string[] }>;
declare const config: Linter.Config[];
export default config;
