import { Type, type Static } from '@sinclair/typebox';
import { itemAt } from '../arrays.ts';
import type { Queryable } from '../db/db.ts';
import { ApiError, type ErrorItem } from '../http/errors.ts';
import { Nullable, PATTERN_MESSAGE, StringEnum } from '../http/schemas.ts';
import { sha256 } from '../ids.ts';
import { findLiveUploadsByTokenHash, markUploadsAttached } from '../uploads/repository.ts';
import { isMimeType, servedFileType, uploadContentPath } from '../uploads/service.ts';

const ATTACHMENT_TYPES = ['image', 'file', 'upload', 'template'] as const;
type AttachmentType = (typeof ATTACHMENT_TYPES)[number];

/**
 * A URL a carousel card carries: http(s) only, like every URL of a message (the scheme here, the host in
 * urlProblems()). Anything else (`javascript:`, `data:`) would run or embed code where the card is shown.
 */
const cardUrl = (description: string) =>
  Type.String({ pattern: '^[hH][tT][tT][pP][sS]?://', [PATTERN_MESSAGE]: 'must be an http or https URL', description });

const Action = Type.Object(
  {
    type: StringEnum(['open_url'], { description: 'Always `open_url`' }),
    title: Type.String({ description: 'Button label' }),
    value: cardUrl('URL to open; http:// or https:// with a host'),
  },
  { additionalProperties: false },
);

const CarouselItem = Type.Object(
  {
    title: Type.String({ maxLength: 100, description: 'Card title, at most 100 characters' }),
    description: Type.Optional(Type.String({ maxLength: 1024, description: 'Card text, at most 1024 characters' })),
    price: Type.Optional(Type.String({ maxLength: 32, description: 'At most 32 characters, pre-formatted by the caller, not computed' })),
    image: Type.Optional(cardUrl('URL of the card image; http:// or https:// with a host')),
    actions: Type.Array(Action, { minItems: 1, maxItems: 1, description: 'Exactly one open_url action' }),
  },
  { additionalProperties: false },
);

/**
 * An attachment as a request carries it (docs/behaviour.md §5). Which
 * properties a type needs and allows is checked by resolveAttachments():
 * image/file take `url` (required), `file_name`, `file_type`; upload takes
 * `token` (required); template takes `layout` and `items` (both required).
 */
export const AttachmentInput = Type.Object(
  {
    type: StringEnum(ATTACHMENT_TYPES, { description: 'attachment_type: image, file, upload or template' }),
    layout: Type.Optional(StringEnum(['carousel'], { description: 'Required for template' })),
    items: Type.Optional(Type.Array(CarouselItem, { minItems: 1, maxItems: 10, description: 'Carousel cards; required for template' })),
    url: Type.Optional(Type.String({ description: 'http(s) URL; required for image and file' })),
    token: Type.Optional(Type.String({ description: 'From POST /v2/uploads, valid 24 hours; required for upload' })),
    file_name: Type.Optional(Type.String({ description: 'When missing, the last path segment of url' })),
    file_type: Type.Optional(Type.String({ description: 'MIME type, used by some devices for a file icon' })),
  },
  { additionalProperties: false, title: 'attachment' },
);
export type AttachmentInput = Static<typeof AttachmentInput>;

/** An attachment as stored on a message and returned in responses. */
export const StoredAttachment = Type.Object(
  {
    type: StringEnum(ATTACHMENT_TYPES, { description: 'attachment_type: image, file, upload or template' }),
    url: Type.Optional(Type.String({ description: 'image/file: as given; upload: the download route' })),
    file_name: Type.Optional(
      Type.String({ description: 'image/file: as given or the last path segment of url; upload: the uploaded name' }),
    ),
    file_type: Type.Optional(Nullable(Type.String({ description: 'MIME type: image/file as given (else null); upload: as uploaded' }))),
    size: Type.Optional(Type.Integer({ description: 'upload: bytes' })),
    layout: Type.Optional(StringEnum(['carousel'], { description: 'template: `carousel`' })),
    items: Type.Optional(Type.Array(CarouselItem, { description: 'template: the carousel cards' })),
  },
  { title: 'stored_attachment' },
);
export type StoredAttachment = Static<typeof StoredAttachment>;

/** Extensions an `image` attachment may have. */
export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp'] as const;

/**
 * Extensions a `file` or `upload` attachment may have: documents, archives,
 * images, audio, video. Never executables, scripts, HTML or SVG (they run code
 * when opened or rendered).
 */
export const FILE_EXTENSIONS = {
  documents: [
    'pdf',
    'txt',
    'csv',
    'rtf',
    'doc',
    'docx',
    'xls',
    'xlsx',
    'ppt',
    'pptx',
    'odt',
    'ods',
    'odp',
    'pages',
    'numbers',
    'key',
    'epub',
  ],
  archives: ['zip', 'gz', 'tgz', 'tar', 'bz2', 'xz', '7z', 'rar'],
  images: ['jpg', 'jpeg', 'png', 'gif', 'webp', 'bmp', 'tif', 'tiff', 'heic', 'heif', 'avif'],
  audio: ['mp3', 'wav', 'ogg', 'oga', 'opus', 'm4a', 'aac', 'flac', 'weba'],
  video: ['mp4', 'm4v', 'mov', 'webm', 'ogv', 'avi', 'mkv', '3gp'],
} as const;

const ALLOWED_EXTENSIONS: Record<'image' | 'file', ReadonlySet<string>> = {
  image: new Set(IMAGE_EXTENSIONS),
  file: new Set(Object.values(FILE_EXTENSIONS).flat()),
};

/**
 * Extensions of server pages that answer a download (`get.php?id=3`): a link's own path may end in one of them, as
 * the file's name then comes from `file_name`; what they send is the linked server's business, not the link's label.
 */
const SERVER_PAGE_EXTENSIONS: ReadonlySet<string> = new Set(['php', 'asp', 'aspx', 'ashx', 'jsp', 'cgi', 'do']);

/** The properties each type takes besides `type`; the first ones listed are required. */
const FIELDS: Record<AttachmentType, { required: (keyof AttachmentInput)[]; optional: (keyof AttachmentInput)[] }> = {
  image: { required: ['url'], optional: ['file_name', 'file_type'] },
  file: { required: ['url'], optional: ['file_name', 'file_type'] },
  upload: { required: ['token'], optional: [] },
  template: { required: ['layout', 'items'], optional: [] },
};

/** Lower-case extension of a file name (`Report.PDF` → `pdf`); null when it has none. */
export function extensionOf(fileName: string): string | null {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 && dot < fileName.length - 1 ? fileName.slice(dot + 1).toLowerCase() : null;
}

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\/\S+$/i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

/** The decoded last path segment of an http(s) URL; null when it is empty. */
function lastPathSegment(url: string): string | null {
  const segment = new URL(url).pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment) || null;
  } catch {
    return segment || null; // malformed percent-encoding: keep it as written
  }
}

function problem(path: string, code: string, message: string): ErrorItem {
  return { path, code, message: `${path} ${message}`, location: 'body' };
}

function failure(code: 'invalid_arguments' | 'invalid_attachment_data', errors: ErrorItem[]): ApiError {
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  const lead = code === 'invalid_arguments' ? 'Invalid arguments' : 'Invalid attachment data';
  return new ApiError(422, code, `${lead}: ${itemAt(errors, 0).message}${more}`, errors);
}

/** Problems with the shape of one attachment that its schema cannot express. */
function shapeProblems(attachment: AttachmentInput, at: string): ErrorItem[] {
  const type = attachment.type;
  const { required, optional } = FIELDS[type];
  const problems: ErrorItem[] = [];
  for (const field of required) {
    if (attachment[field] === undefined) problems.push(problem(`${at}.${field}`, 'required', `is required for type ${type}`));
  }
  for (const field of Object.keys(attachment) as (keyof AttachmentInput)[]) {
    if (field !== 'type' && !required.includes(field) && !optional.includes(field)) {
      problems.push(problem(`${at}.${field}`, 'additionalProperties', `is not allowed for type ${type}`));
    }
  }
  return [...problems, ...urlProblems(attachment, at)];
}

/** Every URL an attachment carries that is not http(s) with a host (docs/behaviour.md §5). */
function urlProblems(attachment: AttachmentInput, at: string): ErrorItem[] {
  // A url on another type is already refused as a property the type does not take.
  const urls: [string, string | undefined][] =
    attachment.type === 'image' || attachment.type === 'file' ? [[`${at}.url`, attachment.url]] : [];
  attachment.items?.forEach((item, i) => {
    urls.push([`${at}.items[${i}].image`, item.image]);
    item.actions.forEach((action, j) => urls.push([`${at}.items[${i}].actions[${j}].value`, action.value]));
  });
  return urls.flatMap(([path, url]) =>
    url !== undefined && !isHttpUrl(url) ? [problem(path, 'format', 'must be an http or https URL')] : [],
  );
}

/**
 * Null when `fileName` has an extension allowed for `type`; otherwise the
 * problem, reported at `path`; `source` says where the name came from.
 */
function extensionProblem(type: 'image' | 'file', fileName: string | null, path: string, source: string): ErrorItem | null {
  const extension = fileName === null ? null : extensionOf(fileName);
  if (extension !== null && ALLOWED_EXTENSIONS[type].has(extension)) return null;
  const name = `${source} ${JSON.stringify(fileName ?? '')}`;
  const rule = `allowed for type ${type} (the lists: docs/api.md, Uploads and attachments, Extension allowlists)`;
  const message =
    extension === null
      ? `${name} has no file extension; only extensions ${rule} are accepted`
      : `${name} has extension .${extension}, which is not ${rule}`;
  return { path, code: 'extension', message: `${path}: ${message}`, location: 'body' };
}

/**
 * Refuses, as attaching it would (422 `invalid_attachment_data`, code `extension`), a file name an `upload`
 * attachment may not carry: for an uploader who may upload only what it can attach (a visitor, docs/widget.md),
 * checked before a byte of the file is stored.
 */
export function checkAttachableFileName(fileName: string): void {
  const bad = extensionProblem('file', fileName, 'file_name', 'the file name');
  if (bad) throw failure('invalid_attachment_data', [{ ...bad, location: 'query' }]);
}

/**
 * With a `file_name` given, the link's own last path segment still counts (docs/api.md, Extension allowlists): a
 * link to `a.exe` labelled `a.pdf` is refused. A segment without an extension (`/download`) passes; one with an
 * extension must have one allowed for the type, or be a server page (SERVER_PAGE_EXTENSIONS).
 */
function linkProblem(type: 'image' | 'file', url: string, path: string): ErrorItem | null {
  const segment = lastPathSegment(url);
  const extension = segment === null ? null : extensionOf(segment);
  if (extension === null || ALLOWED_EXTENSIONS[type].has(extension) || SERVER_PAGE_EXTENSIONS.has(extension)) return null;
  return extensionProblem(type, segment, path, "the URL's path, whatever file_name says,");
}

/**
 * A given `file_type` is stored and shown as given, so it must be a well-formed MIME type that a browser would not
 * render as a page or run (the types an upload is never served as: HTML, SVG, XML, scripts, docs/behaviour.md §11),
 * and an image's must be an image type.
 */
function fileTypeProblem(type: 'image' | 'file', fileType: string, path: string): ErrorItem | null {
  const passive = isMimeType(fileType) && servedFileType(fileType) === fileType;
  if (passive && (type === 'file' || /^image\//i.test(fileType))) return null;
  const wanted = type === 'image' ? 'an image MIME type (image/png, image/jpeg, …)' : 'a MIME type (application/pdf, …)';
  return {
    path,
    code: 'file_type',
    message: `${path}: ${JSON.stringify(fileType)} is not ${wanted} a browser only shows or downloads (never HTML, SVG, XML or scripts)`,
    location: 'body',
  };
}

/**
 * Checks the rules the schema cannot (which properties each type needs, url
 * scheme, upload token validity, allowed extensions) and returns what to store.
 * `path` names the array in the request (`messages[0].attachments`); error items
 * name the property at fault (`messages[0].attachments[1].url`). Shape problems
 * are 422 invalid_arguments; unknown/expired tokens and disallowed extensions
 * 422 invalid_attachment_data. Upload tokens count within `accountId` only and
 * until 24 hours after the upload (`now` decides). Call it with the transaction
 * that stores the message: it marks the uploads it accepts as attached, which
 * keeps them from the upload retention pass (src/uploads/retention.ts).
 */
export async function resolveAttachments(
  db: Queryable,
  accountId: string,
  attachments: AttachmentInput[],
  now: Date,
  path: string,
): Promise<StoredAttachment[]> {
  const shape = attachments.flatMap((attachment, i) => shapeProblems(attachment, `${path}[${i}]`));
  if (shape.length > 0) throw failure('invalid_arguments', shape);

  const tokenHashes = attachments.flatMap((a) => (a.type === 'upload' && a.token !== undefined ? [sha256(a.token)] : []));
  // Marked first, in the message's transaction: a rejected message rolls the mark back,
  // and an upload the retention pass deletes meanwhile is no longer found (see markUploadsAttached).
  await markUploadsAttached(db, accountId, tokenHashes, now);
  const uploads = await findLiveUploadsByTokenHash(db, accountId, tokenHashes, now);

  const problems: ErrorItem[] = [];
  const stored = attachments.map((attachment, i): StoredAttachment => {
    const at = `${path}[${i}]`;
    switch (attachment.type) {
      case 'image':
      case 'file': {
        const type = attachment.type;
        const url = attachment.url as string; // required for the type: checked above
        const fileName = attachment.file_name ?? lastPathSegment(url);
        const bad =
          attachment.file_name === undefined
            ? extensionProblem(type, fileName, `${at}.url`, 'the file name taken from the URL')
            : (linkProblem(type, url, `${at}.url`) ?? extensionProblem(type, fileName, `${at}.file_name`, 'the file name'));
        if (bad) problems.push(bad);
        const badType = attachment.file_type === undefined ? null : fileTypeProblem(type, attachment.file_type, `${at}.file_type`);
        if (badType) problems.push(badType);
        return { type, url, file_name: fileName ?? '', file_type: attachment.file_type ?? null };
      }
      case 'upload': {
        const upload = uploads.get(sha256(attachment.token as string)); // required for the type: checked above
        if (!upload) {
          problems.push(problem(`${at}.token`, 'token', 'is not a valid upload token: unknown, expired (24 hours) or of another account'));
          return { type: 'upload' };
        }
        const bad = extensionProblem('file', upload.file_name, `${at}.token`, 'the uploaded file');
        if (bad) problems.push(bad);
        return {
          type: 'upload',
          url: uploadContentPath(upload.id),
          file_name: upload.file_name,
          file_type: upload.file_type,
          size: upload.size,
        };
      }
      case 'template':
        return { type: 'template', layout: attachment.layout, items: attachment.items };
    }
  });
  if (problems.length > 0) throw failure('invalid_attachment_data', problems);
  return stored;
}
