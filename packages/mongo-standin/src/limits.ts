/** MongoDB's limit on a document's BSON size (16 MiB): stored documents, and replies. */
export const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;

/** MongoDB's limit on a wire message's size (hello's maxMessageSizeBytes). */
export const MAX_MESSAGE_SIZE_BYTES = 48_000_000;
