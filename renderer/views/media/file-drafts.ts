// Pure draft builders of the file-based editors, WAP push file and MMS notification: a picked file
// (or a library number) in, ContentDraft out. Which route a file takes is protocol's content
// selection (spec 2.4); the fields' problems are protocol/content.ts's (rich-drafts.ts draftProblems).
import { unzipSync } from 'fflate';
import { fileExtension, selectFileRoute } from '../../../protocol/content-selection.ts';
import type { FileRoute } from '../../../protocol/content-selection.ts';
import type { AddSmil } from '../../../protocol/limits.ts';
import { bytesToHex } from '../../../protocol/smart/index.ts';
import { libraryNumberProblem } from './library-number.ts';
import { draftProblems, sentence } from './rich-drafts.ts';
import type { ContentDraft } from './types.ts';

export interface PickedFile {
  name: string;
  /** The file's bytes in hex (what WAPPushFileData1 / MMSNotificationFileData1 carry). */
  hex: string;
  size: number;
  /** A .zip's parts, listed when it was picked (the gateway composes the MMS from them). */
  zip?: ZipListing;
}

export interface ZipListing {
  parts: Array<{ name: string; size: number; role: string }>;
  /** Why the ZIP cannot be read. */
  error?: string;
}

/** What each part of a ZIP of MMS components is: SMIL layout, text, image, audio, video, … */
function partRole(name: string): string {
  const ext = fileExtension(name);
  if (ext === '.smil' || ext === '.smi') return 'SMIL layout';
  if (ext === '.txt') return 'text';
  const { category } = selectFileRoute(name);
  return category === 'other' ? 'other file' : category;
}

/** The files of a ZIP (names and sizes, nothing inflated), or why it cannot be read. */
export function listZipParts(bytes: Uint8Array): ZipListing {
  const parts: ZipListing['parts'] = [];
  try {
    unzipSync(bytes, {
      filter: (f) => {
        const name = f.name.slice(f.name.lastIndexOf('/') + 1);
        if (name !== '' && !name.startsWith('.'))
          parts.push({ name, size: f.originalSize, role: partRole(name) });
        return false;
      },
    });
  } catch (e) {
    return { parts: [], error: e instanceof Error ? e.message : String(e) };
  }
  return { parts };
}

export function fileToPicked(name: string, bytes: Uint8Array): PickedFile {
  const picked: PickedFile = { name, hex: bytesToHex(bytes), size: bytes.length };
  if (fileExtension(name) === '.zip') picked.zip = listZipParts(bytes);
  return picked;
}

/** Why a file does not belong to this route (spec 2.4 content selection), or null. */
function routeProblem(file: PickedFile, route: FileRoute): string | null {
  const sel = selectFileRoute(file.name);
  return sel.route === route ? null : sentence(`${file.name}: ${sel.reason}`);
}

export interface WapPushForm {
  source: 'library' | 'file';
  library: string;
  file: PickedFile | null;
  /** Message: the text of the WAP push (≤ 50 characters). */
  message: string;
  /** ContentType of an upload; '' = derived by the gateway from the file name's extension. */
  contentType?: string;
}

export function wapPushDraft(form: WapPushForm): ContentDraft {
  const text = form.message;
  if (form.source === 'library') {
    const problem = libraryNumberProblem(form.library, 'wapFile');
    const fields: Record<string, string> = problem ? {} : { MMSFileWAP: form.library.trim() };
    return {
      kind: 'wapPush',
      text,
      fields,
      problems: problem ? [problem] : draftProblems('wapPush', fields, text),
      summary: `WAP push of library file ${form.library.trim()}`,
    };
  }
  if (!form.file)
    return {
      kind: 'wapPush',
      text,
      fields: {},
      problems: ['Choose a file to upload.'],
      summary: 'WAP push file',
    };
  const fields: Record<string, string> = {
    WAPPushFileName1: form.file.name,
    WAPPushFileData1: form.file.hex,
  };
  if (form.contentType !== undefined && form.contentType.trim() !== '')
    fields.ContentType = form.contentType.trim();
  const problems = draftProblems('wapPush', fields, text);
  const wrong = routeProblem(form.file, 'wapPush');
  if (wrong) problems.unshift(wrong);
  if (form.file.size === 0) problems.push(`${form.file.name} is empty.`);
  return {
    kind: 'wapPush',
    text,
    fields,
    problems,
    summary: `WAP push file “${form.file.name}”, ${form.file.size} bytes`,
  };
}

export interface MmsForm {
  source: 'library' | 'file';
  library: string;
  file: PickedFile | null;
  /** Message: the subject (≤ 50 characters). */
  subject: string;
  disableRepurposing: boolean;
  disableWalledGardenRule: boolean;
  /** AddSMIL: '0' handset default, '1' add, '2' do not add. */
  addSmil: AddSmil;
}

export function mmsDraft(form: MmsForm): ContentDraft {
  const text = form.subject;
  const advanced: Record<string, string> = {};
  if (form.disableRepurposing) advanced.DisableRepurposing = '1';
  if (form.disableWalledGardenRule) advanced.DisableWalledGardenRule = '1';
  if (form.addSmil !== '0') advanced.AddSMIL = form.addSmil;
  if (form.source === 'library') {
    const problem = libraryNumberProblem(form.library, 'mmsFile');
    const fields: Record<string, string> = problem ? {} : { MMSFileMMS: form.library.trim(), ...advanced };
    return {
      kind: 'mms',
      text,
      fields,
      problems: problem ? [problem] : draftProblems('mms', fields, text),
      summary: `MMS notification of library file ${form.library.trim()}`,
    };
  }
  if (!form.file)
    return {
      kind: 'mms',
      text,
      fields: {},
      problems: ['Choose a .mms file or a .zip of parts to upload.'],
      summary: 'MMS notification',
    };
  const fields = {
    MMSNotificationFileName1: form.file.name,
    MMSNotificationFileData1: form.file.hex,
    ...advanced,
  };
  const problems = draftProblems('mms', fields, text);
  const wrong = routeProblem(form.file, 'mms');
  // validateRequest already says ".mms or .zip"; the content-selection sentence says where it belongs
  if (wrong) problems.unshift(wrong);
  if (form.file.size === 0) problems.push(`${form.file.name} is empty.`);
  else if (form.file.zip?.error !== undefined)
    problems.push(sentence(`${form.file.name} is not a readable ZIP file: ${form.file.zip.error}`));
  else if (form.file.zip && !form.file.zip.parts.some((p) => p.role !== 'SMIL layout'))
    problems.push(`${form.file.name} has no MMS components (text, image, audio or video).`);
  return {
    kind: 'mms',
    text,
    fields,
    problems,
    summary: `MMS notification “${form.file.name}”, ${form.file.size} bytes`,
  };
}
