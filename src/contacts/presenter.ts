import { toConversation, toMessage, toPath } from '../conversations/presenter.ts';
import type { ExportedConversationRows, ExportedUploadRow } from '../conversations/repository.ts';
import { uploadContentPath } from '../uploads/service.ts';
import type { ContactRow } from './repository.ts';
import type { Contact, ExportedConversation, ExportedUpload } from './schema.ts';

export function toContact(row: ContactRow): Contact {
  return {
    id: row.id,
    email: row.email,
    identity_id: row.identity_id,
    name: row.name,
    phone: row.phone,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function toExportedUpload(row: ExportedUploadRow): ExportedUpload {
  return {
    id: row.id,
    file_name: row.file_name,
    file_type: row.file_type,
    size: row.size,
    created_at: row.created_at.toISOString(),
    url: uploadContentPath(row.id),
  };
}

/** A conversation of a person's export, with all its messages and paths and the uploads they attach. */
export function toExportedConversation(rows: ExportedConversationRows): ExportedConversation {
  return {
    ...toConversation(rows.row),
    messages: rows.messages.map(toMessage),
    paths: rows.paths.map(toPath),
    uploads: rows.uploads.map(toExportedUpload),
  };
}
