// Errors of the storage layer. `code` is for programs (the service facade maps it to the API),
// `message` is a sentence a user can read.
export type StoreErrorCode =
  'not-found' | 'invalid-input' | 'invalid-number' | 'duplicate' | 'invalid-state' | 'invalid-recipients';

export class StoreError extends Error {
  readonly code: StoreErrorCode;
  constructor(code: StoreErrorCode, message: string) {
    super(message);
    this.name = 'StoreError';
    this.code = code;
  }
}

/** A contact with the same normalised number exists already. */
export class DuplicateContactError extends StoreError {
  readonly existingId: number;
  readonly number: string;
  constructor(number: string, existingId: number, existingName: string) {
    super('duplicate', `${number} is already the number of contact "${existingName}"`);
    this.name = 'DuplicateContactError';
    this.existingId = existingId;
    this.number = number;
  }
}

/** Some recipients of a send are not valid numbers: nothing was journaled. */
export class InvalidRecipientsError extends StoreError {
  readonly problems: ReadonlyArray<{ input: string; reason: string }>;
  constructor(problems: ReadonlyArray<{ input: string; reason: string }>) {
    super(
      'invalid-recipients',
      problems.length === 0
        ? 'no recipients'
        : `${problems.length} invalid recipient(s): ${problems
            .slice(0, 5)
            .map((p) => `"${p.input}" (${p.reason})`)
            .join(', ')}${problems.length > 5 ? ', …' : ''}`,
    );
    this.name = 'InvalidRecipientsError';
    this.problems = problems;
  }
}
