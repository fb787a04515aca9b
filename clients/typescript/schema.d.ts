// Generated from the OpenAPI document (GET /v2/openapi.json) by `npm run client:generate`
// (clients/typescript/generate.ts, openapi-typescript). Do not edit: regenerate.

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The process is alive
         * @description Answers 200 while the process runs, without touching the database: for a liveness probe. Not rate limited.
         */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The database is reachable and takes work
         * @description 200 when the database answers a ping (sent outside the queue of heavy statistics queries) and takes work; 503 when it does not answer, or when every connection has been busy for 2 s without one coming free (new work would only queue): for a readiness probe. Not rate limited.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List agents
         * @description Every agent of the account (deleted ones excepted), with its status and presence (`is_connected`: a ping within PRESENCE_TTL_SECONDS).
         */
        get: operations["listAgents"];
        put?: never;
        /**
         * Add an agent
         * @description Management. The agent starts offline and not connected. A used e-mail: 422 `invalid_arguments` (path `email`, code `unique`).
         */
        post: operations["createAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/agents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an agent
         * @description The agent record; an unknown, deleted or other account's agent is 404.
         */
        get: operations["getAgent"];
        put?: never;
        post?: never;
        /**
         * Delete an agent
         * @description Management. The agent disappears from lists and lookups; messages and statistics keep its id.
         */
        delete: operations["deleteAgent"];
        options?: never;
        head?: never;
        /**
         * Update an agent status
         * @description Sets the agent's `status` (`online` or `offline`), the only field accepted; a change records an `agent.updated` event.
         */
        patch: operations["updateAgent"];
        trace?: never;
    };
    "/v2/agents/{id}/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Keep an agent connected
         * @description Marks the agent connected for PRESENCE_TTL_SECONDS (default 120).
         */
        post: operations["pingAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the account settings
         * @description The account's name and time zone (the zone of the legacy export's days).
         */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update the account settings
         * @description Changes the name, the time zone (an IANA name; another value is 422 code `format`), the origins allowed to run the chat widget and whether it requires a signed identity; absent fields stay as they are.
         */
        patch: operations["updateAccount"];
        trace?: never;
    };
    "/v2/account/api-key/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the legacy apiKey
         * @description Replaces the apiKey of the legacy `/stats` export with a new one, in this response only; the old key is refused at once. Other accounts and bearer tokens are unaffected.
         */
        post: operations["rotateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/account/widget-key/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the widget key
         * @description Replaces the public key of the chat widget: the old key starts no visitor session from now on, and every visitor token of the account is revoked (visitors start new sessions with the new key).
         */
        post: operations["rotateWidgetKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/account/widget-identity-secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the identity secret
         * @description A new secret for signing visitor identities (HMAC-SHA256, docs/widget.md), in this response only; identities signed with the old one are refused from now on.
         */
        post: operations["rotateWidgetIdentitySecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API tokens
         * @description The account's API tokens, with their names and scopes; never their secrets, shown only when created.
         */
        get: operations["listTokens"];
        put?: never;
        /**
         * Create an API token
         * @description The token is in this response only. A token can grant only scopes it holds itself (else 403).
         */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API token
         * @description Takes effect at once.
         */
        delete: operations["revokeToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List groups
         * @description Scope account:manage or statistics:read (to name the groups statistics filter by).
         */
        get: operations["listGroups"];
        put?: never;
        /**
         * Create a group
         * @description A group routes conversations to its agents (a conversation `group_id`, an agent `group_ids`) and filters statistics.
         */
        post: operations["createGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a group
         * @description Records that name it keep its id; new references to it are refused as unknown.
         */
        delete: operations["deleteGroup"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tags
         * @description Scope account:manage or statistics:read (to name the tags statistics filter by).
         */
        get: operations["listTags"];
        put?: never;
        /**
         * Create a tag
         * @description A tag labels conversations (their `tags`) and filters statistics.
         */
        post: operations["createTag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/tags/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a tag
         * @description Records that name it keep its id; new references to it are refused as unknown.
         */
        delete: operations["deleteTag"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/bots/{id}/trigger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the trigger of a bot
         * @description The bot's trigger in the shape `POST /v2/bots` accepts back (`active`, `event`, `conditions`, `content`); `content.html` is null unless it was given.
         */
        get: operations["getBotTrigger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/bots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List bots
         * @description Management. Every bot of the account, without its trigger (`GET /v2/bots/{id}/trigger`).
         */
        get: operations["listBots"];
        put?: never;
        /**
         * Create a bot with its trigger
         * @description Management. A bot and its trigger; every trigger field is optional (active true, event `conversation_opened`, conditions `{}`). The message goes flat (`text`, `html`) or as `content: {text, html}`, not both (422 code `oneOf`); html is sanitised as in messages.
         */
        post: operations["createBot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/bots/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a bot with its trigger
         * @description Messages the bot sent keep its id.
         */
        delete: operations["deleteBot"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List contacts
         * @description Newest first, in pages of `size` with an opaque `after` cursor bound to `q` (another `q` or account: 422 `invalid_arguments`, path `after`). `q`: a prefix of a word of the name or of the e-mail, case and diacritics ignored.
         */
        get: operations["listContacts"];
        put?: never;
        /**
         * Create a contact
         * @description Always creates a new contact. Records a `contact.created` event.
         */
        post: operations["createContact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/contacts/find": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find a contact by e-mail
         * @description Case-insensitive; with several matches the most recently updated wins. No match, or no `email`: 404.
         */
        get: operations["findContactByEmail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/contacts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a contact
         * @description The contact record; an unknown or other account's contact is 404.
         */
        get: operations["getContact"];
        put?: never;
        post?: never;
        /**
         * Erase a contact and everything that is theirs
         * @description GDPR article 17. Removes the contact, its conversations with their messages, paths, ratings, variables and tags, the uploads attached in them (unless another contact's conversation attaches one too), their events and pending webhook deliveries, and records one `contact.deleted` event carrying only the contact id. The contact disappears at once; its data goes in batches. A failure part-way leaves the contact hidden and marked: calling again finishes the erasure. Scope `account:manage`: it cannot be undone. Webhooks already delivered cannot be recalled.
         */
        delete: operations["eraseContact"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/contacts/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export everything stored about a contact
         * @description GDPR articles 15 and 20: one JSON document with the contact and every conversation of it, each with all its messages, paths, rating, variables, tags and the metadata and download links of its uploads. Streamed a batch of conversations at a time, so a long history neither times out nor is held in memory; a failure once it has started ends the response early (the JSON is then incomplete).
         */
        get: operations["exportContact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a conversation
         * @description With `text` and/or `html` (one contact message) or `messages` (imported history). Errors 422: `invalid_arguments`, `contact_not_found`, `agent_not_found`, `group_not_found`, `tag_not_found`, `no_contact_message`, `invalid_attachment_data`.
         */
        post: operations["createConversation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/conversations/find": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find a conversation by ext_id
         * @description The conversation whose `ext_id` (the caller's own id for it, unique in the account) is the one given; none is 404.
         */
        get: operations["findConversationByExtId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a conversation
         * @description Optionally with its last 200 messages and paths (oldest first) and its statistics.
         */
        get: operations["getConversation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a conversation
         * @description Any of group_id, tags, variables (replaced whole), ext_id.
         */
        patch: operations["updateConversation"];
        trace?: never;
    };
    "/v2/conversations/{id}/assign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Assign an agent
         * @description Assigning an agent already assigned changes nothing. 422 `agent_not_found`; 422 `invalid_parameters` on a closed conversation.
         */
        patch: operations["assignAgent"];
        trace?: never;
    };
    "/v2/conversations/{id}/unassign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Unassign an agent
         * @description 422 `agent_not_found`; 422 `invalid_parameters` when the agent is not assigned.
         */
        patch: operations["unassignAgent"];
        trace?: never;
    };
    "/v2/conversations/{id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Close a conversation
         * @description Closing a closed conversation changes nothing.
         */
        patch: operations["closeConversation"];
        trace?: never;
    };
    "/v2/conversations/{id}/typing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an agent's typing signal
         * @description Records a `conversation.agent_typing` event (for the event stream, webhooks and the visitor), not a message. 422 `agent_not_found`.
         */
        post: operations["signalAgentTyping"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/conversations/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List messages, newest first
         * @description Messages, notes and system event messages, newest first, `size` per page (1 to 200, default 50): `{items, after, total}`; pass `after` back for the next page, null on the last.
         */
        get: operations["listMessages"];
        put?: never;
        /**
         * Add a message
         * @description As the contact, an agent (`agent_id` required) or a bot. `created_at` imports history: not in the future, not before the latest message.
         */
        post: operations["sendMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/conversations/{id}/paths": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List paths, newest first
         * @description The pages the contact visited, newest first, `size` per page (1 to 200, default 50): `{items, after, total}`; pass `after` back for the next page, null on the last.
         */
        get: operations["listPaths"];
        put?: never;
        /**
         * Record a page the contact visited
         * @description The first path's host becomes the conversation's `domain`.
         */
        post: operations["addPath"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/conversations/{id}/rating": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rate a conversation
         * @description value 1, 3 or 5; a new rating replaces the previous one.
         */
        post: operations["rateConversation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/conversations/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search conversations
         * @description Filters (all given must match) and full text over message text and the contact's name and e-mail, case and diacritics ignored (`prilis` finds `příliš`). Newest change first by default; pages of `size` with an opaque `after` cursor bound to the body it came from (another body or account: 422 `invalid_arguments`, path `after`). With a `query`, each item has a plain-text `snippet` with the matched ranges.
         */
        post: operations["searchConversations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a file
         * @description Send the file as multipart/form-data in a part named `file`, or as the raw body with its Content-Type and `?file_name=`. At most 20 MiB, within the account's upload quotas (total and per 24 hours: 413 or 429 `upload_quota_exceeded`). The returned token attaches the file (`{"type":"upload","token":...}`) in this account for 24 hours.
         */
        post: operations["createUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/uploads/{id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an uploaded file
         * @description The bytes of an upload of this account, with its stored Content-Type (`image/png`, `text/csv`, `application/pdf`, ...; a type a browser could render or run is served as application/octet-stream), `X-Content-Type-Options: nosniff` and a sandboxing Content-Security-Policy.
         */
        get: operations["downloadUpload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/statistics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Compute statistics
         * @description Each caller-named entry computes one metric over a time range, optionally filtered and split into up to 3 nested levels of terms or date buckets (at most 10,000 buckets per response). Medians are true medians computed in the database; local times and date buckets follow `timezone`.
         */
        post: operations["getStatistics"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live event stream
         * @description The account's events as they commit, as Server-Sent Events. Reconnect with `Last-Event-ID` (or `?last_event_id=`) to resume exactly after that event; without either, the stream starts with events committed after connecting. A token, an account and an instance hold a limited number of streams at once (429 past them).
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks
         * @description The account's webhooks, without their secrets (shown only when created).
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook
         * @description Every event of the account (or of the listed types) committed from now on is POSTed to `url`, retried for 24 hours, in order per conversation, and signed to the Standard Webhooks spec: `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (the attempt, in Unix seconds) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`), plus the legacy `X-Chat-Service-Hmac` (hex HMAC-SHA256 of the body keyed with `secret` as text).
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description Its pending deliveries are dropped.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhooks/{id}/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret of a webhook
         * @description A new secret (the given one, or a generated `whsec_` one), shown in this answer only. For `overlap_seconds` (default one day) deliveries carry two `v1,` signatures in webhook-signature, with the new and the replaced secret, so receivers can switch at their pace; the legacy X-Chat-Service-Hmac uses the new secret at once.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent delivery attempts of a webhook
         * @description The 100 most recent delivery attempts, newest first (kept 7 days): status code or error, duration, and when the event is tried next (null once delivered or given up).
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget/v1/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start or resume a visitor session
         * @description From a page on one of the account's `widget_origins` (the `Origin` header; another is 403 `forbidden`): resumes the session of `token` when it is still valid, else creates an anonymous contact (or, with a verified `identity`, attaches to the contact of that identity_id) and answers a new visitor token. 401 `invalid_identity`: a forged, expired or missing (when the account requires one) identity. 429: too many new sessions from the client's address.
         */
        post: operations["startVisitorSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget/v1/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the visitor's conversations
         * @description The visitor's own conversations, newest first (at most 100).
         */
        get: operations["listVisitorConversations"];
        put?: never;
        /**
         * Start a conversation
         * @description Starts a conversation with the visitor's first message, as POST /v2/conversations with `text` does. With `client_id` (or `Idempotency-Key`) a repeated start answers the first one (409 `idempotency_key_in_use` while it still runs for over 10 s). 429: too many messages from this visitor.
         */
        post: operations["startVisitorConversation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget/v1/conversations/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the messages of a conversation
         * @description The messages of one of the visitor's conversations (no internal notes or system records), newest first, `size` per page: `{items, after, total}`; pass `after` back for the next page. Another visitor's conversation is 404.
         */
        get: operations["listVisitorMessages"];
        put?: never;
        /**
         * Send a message
         * @description A contact message in one of the visitor's conversations: text, files sent with POST /widget/v1/uploads (`attachments`, by their tokens; a refused file is 422 `invalid_attachment_data`), or both. With `client_id` (or `Idempotency-Key`) a repeated message answers the first one, stored once (409 `idempotency_key_in_use` while it still runs for over 10 s). 429: too many messages from this visitor.
         */
        post: operations["sendVisitorMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget/v1/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a file
         * @description As POST /v2/uploads: the file as the raw body with its Content-Type and `?file_name=`, or as multipart/form-data in a part named `file`; at most 20 MiB, within the account's upload quotas (413 or 429 `upload_quota_exceeded`). A name whose extension no attachment may carry (docs/api.md, Extension allowlists) is 422 `invalid_attachment_data`, before the file is read. The token attaches it to a message of the visitor (`attachments`) for 24 hours. Counts as a message against the per-visitor limit (429).
         */
        post: operations["createVisitorUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget/v1/uploads/{id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a file of a conversation
         * @description A file attached to a message of one of the visitor's conversations (its own or an agent's), served as GET /v2/uploads/{id}/content serves it: the stored type (a type a browser could render or run as application/octet-stream), nosniff and a sandboxing Content-Security-Policy. Any other upload (not attached to a message the visitor can see) is 404.
         */
        get: operations["downloadVisitorUpload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget/v1/conversations/{id}/rating": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rate a conversation
         * @description value 1, 3 or 5, with an optional comment; a new rating replaces the previous one.
         */
        post: operations["rateVisitorConversation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget/v1/conversations/{id}/typing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Say the visitor is typing
         * @description Records a `conversation.contact_typing` event (never a message) for the agents' streams. At most 2 per 5 s per visitor (429 past them).
         */
        post: operations["signalVisitorTyping"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live events of the visitor's conversations
         * @description Server-Sent Events of the visitor's conversations as they commit (messages, opening, closing, rating; never notes or agent-only changes). Reconnect with `Last-Event-ID` (or `?last_event_id=`) to resume exactly after that event. The stream follows the conversations the visitor had when it opened: after starting one, open a new stream with the last id seen.
         */
        get: operations["streamVisitorEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stats/totals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Statistics totals over a range
         * @description The overview counters and each agent’s counters over from..to. Authenticated by the apiKey parameter or, without one, by a bearer token with statistics:read; unknown parameters are ignored.
         */
        get: operations["exportLegacyTotals"];
        put?: never;
        /**
         * Statistics totals over a range
         * @description The overview counters and each agent’s counters over from..to. Authenticated by the apiKey parameter or, without one, by a bearer token with statistics:read; unknown parameters are ignored. POST takes the same parameters as a form or JSON body.
         */
        post: operations["exportLegacyTotalsFromBody"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stats/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Overview statistics by day, week or month
         * @description The overview counters for every unit overlapping from..to, keyed by unitId. Authenticated by the apiKey parameter or, without one, by a bearer token with statistics:read; unknown parameters are ignored.
         */
        get: operations["exportLegacyOverview"];
        put?: never;
        /**
         * Overview statistics by day, week or month
         * @description The overview counters for every unit overlapping from..to, keyed by unitId. Authenticated by the apiKey parameter or, without one, by a bearer token with statistics:read; unknown parameters are ignored. POST takes the same parameters as a form or JSON body.
         */
        post: operations["exportLegacyOverviewFromBody"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stats/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Per-agent statistics by day, week or month
         * @description Each agent’s counters for every unit overlapping from..to. Authenticated by the apiKey parameter or, without one, by a bearer token with statistics:read; unknown parameters are ignored.
         */
        get: operations["exportLegacyAgents"];
        put?: never;
        /**
         * Per-agent statistics by day, week or month
         * @description Each agent’s counters for every unit overlapping from..to. Authenticated by the apiKey parameter or, without one, by a bearer token with statistics:read; unknown parameters are ignored. POST takes the same parameters as a form or JSON body.
         */
        post: operations["exportLegacyAgentsFromBody"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** account */
        account: {
            /** @description `ac` + 12 characters */
            id: string;
            /** @description Display name */
            name: string;
            /** @description IANA time zone of the legacy statistics export */
            timezone: string;
            /** @description The public key of the chat widget (`wk_` + 24 characters), read-only: POST /v2/account/widget-key/rotate replaces it */
            widget_key: string;
            /** @description Origins (`https://shop.example.com`) whose pages may start visitor sessions; empty: the widget is off */
            widget_origins: string[];
            /** @description Visitor sessions need a signed identity (docs/widget.md "Identity verification") */
            widget_identity_required: boolean;
            /** @description An identity secret exists (POST /v2/account/widget-identity-secret/rotate makes one); it is never shown again */
            widget_identity_secret_set: boolean;
            /**
             * Format: date-time
             * @description ISO-8601 UTC with milliseconds
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO-8601 UTC with milliseconds
             */
            updated_at: string;
        };
        /** agent */
        agent: {
            /**
             * @description Numeric string
             * @example 596772
             */
            id: string;
            /** @description Unique among the account's agents, case-insensitively */
            email: string;
            /** @description Full name; null when not given */
            full_name: string | null;
            /** @description Name shown to contacts; null when not given */
            nickname: string | null;
            /** @description What the agent may do in the account: `agent`, `admin` or `owner` */
            role: "agent" | "admin" | "owner";
            /** @description agent_status: `online` or `offline` */
            status: "online" | "offline";
            /** @description True while the last ping is younger than PRESENCE_TTL_SECONDS */
            is_connected: boolean;
            /**
             * Format: date-time
             * @description Time of the last ping; null before the first
             */
            last_ping_at: string | null;
            /** @description Groups the agent belongs to */
            group_ids: string[];
            /**
             * Format: date-time
             * @description ISO-8601 UTC with milliseconds
             */
            created_at: string;
        };
        /** agent_list */
        agent_list: {
            /** @description The account's agents (not deleted ones), oldest first */
            agents: components["schemas"]["agent"][];
        };
        /** attachment */
        attachment: {
            /**
             * @description attachment_type: image, file, upload or template
             * @enum {string}
             */
            type: "image" | "file" | "upload" | "template";
            /**
             * @description Required for template
             * @enum {string}
             */
            layout?: "carousel";
            /** @description Carousel cards; required for template */
            items?: {
                /** @description Card title, at most 100 characters */
                title: string;
                /** @description Card text, at most 1024 characters */
                description?: string;
                /** @description At most 32 characters, pre-formatted by the caller, not computed */
                price?: string;
                /** @description URL of the card image; http:// or https:// with a host */
                image?: string;
                /** @description Exactly one open_url action */
                actions: {
                    /**
                     * @description Always `open_url`
                     * @enum {string}
                     */
                    type: "open_url";
                    /** @description Button label */
                    title: string;
                    /** @description URL to open; http:// or https:// with a host */
                    value: string;
                }[];
            }[];
            /** @description http(s) URL; required for image and file */
            url?: string;
            /** @description From POST /v2/uploads, valid 24 hours; required for upload */
            token?: string;
            /** @description When missing, the last path segment of url */
            file_name?: string;
            /** @description MIME type, used by some devices for a file icon */
            file_type?: string;
        };
        /** bot */
        bot: {
            /**
             * @description `bo` + 12 characters
             * @example boX1mK0pQ7aZ2c
             */
            id: string;
            /** @description Display name */
            name: string;
            /**
             * Format: date-time
             * @description ISO-8601 UTC with milliseconds
             */
            created_at: string;
        };
        /** bot_list */
        bot_list: {
            /** @description The account's bots, oldest first */
            bots: components["schemas"]["bot"][];
        };
        /** bot_trigger */
        bot_trigger: {
            /** @description The bot this trigger belongs to */
            bot_id: string;
            /** @description The bot name */
            name: string;
            /** @description Whether the trigger fires */
            active: boolean;
            /**
             * @description What fires the trigger
             * @enum {string}
             */
            event: "conversation_opened" | "page_visit" | "idle";
            /** @description Conditions the trigger matches on (free-form object) */
            conditions: {
                [key: string]: unknown;
            };
            /** @description The message the trigger sends */
            content: {
                /** @description Plain text of the message */
                text: string | null;
                /** @description Sanitised HTML of the message (only `a` and `br`) */
                html: string | null;
            };
            /**
             * Format: date-time
             * @description Last change of the trigger
             */
            updated_at: string;
        };
        /**
         * contact
         * @description A person who chats with the account, as GET /v2/contacts/{id} returns it
         */
        contact: {
            /**
             * @description `ct` + 12 characters
             * @example ctH2vN8sLq0Yw5
             */
            id: string;
            /** @description E-mail address; null when not given */
            email: string | null;
            /** @description The caller's own id for this person, unique per account */
            identity_id: string | null;
            /** @description Name; null when not given */
            name: string | null;
            /** @description Phone number, as given; null when not given */
            phone: string | null;
            /**
             * Format: date-time
             * @description ISO-8601 UTC with milliseconds
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change; decides which of several e-mail matches /contacts/find returns
             */
            updated_at: string;
        };
        /**
         * contact_export
         * @description Everything stored about the contact (GDPR articles 15 and 20)
         */
        contact_export: {
            /**
             * Format: date-time
             * @description ISO-8601 UTC with milliseconds
             */
            exported_at: string;
            contact: components["schemas"]["contact"];
            /** @description Every conversation of the contact (its rating, variables and tags included), in id order */
            conversations: components["schemas"]["exported_conversation"][];
        };
        /** contacts_page */
        contacts_page: {
            /** @description Newest first */
            items: components["schemas"]["contact"][];
            /** @description Pass as `after` (with the same `q`) for the next page; null on the last page */
            after: string | null;
        };
        /** conversation */
        conversation: {
            /** @description Conversation id (`co` + 12 characters) */
            id: string;
            /** @description The caller's own id, unique per account */
            ext_id: string | null;
            /**
             * @description `pending` (no contact message), `open` (waiting for an agent), `served` (an agent assigned or replied), `closed`
             * @enum {string}
             */
            status: "pending" | "open" | "served" | "closed";
            /** @description The channel it came through */
            channel: {
                /**
                 * @description Always `default`
                 * @enum {string}
                 */
                type: "default";
                /** @description Always null */
                id: null;
            };
            /** @description The contact it is with */
            contact_id: string;
            /** @description The group it is routed to, or null */
            group_id: string | null;
            /** @description Host of the first path recorded; null before any */
            domain: string | null;
            /** @description Agents assigned to it */
            assigned_ids: string[];
            /** @description Agents who have written in it */
            agent_ids: string[];
            /** @description Tag ids */
            tags: string[];
            /** @description Flat object of string keys to string, number or boolean values */
            variables: {
                [key: string]: unknown;
            };
            /** @description The rating, 1, 3 or 5; null when not rated */
            rating_value: number | null;
            /** @description The rating's comment */
            rating_text: string | null;
            /**
             * Format: date-time
             * @description When it was last rated; ISO-8601 UTC with milliseconds
             */
            rated_at: string | null;
            /** @description Its first contact message was offline */
            is_offline: boolean;
            /** @description An agent has been assigned or has replied */
            is_served: boolean;
            /** @description Contact messages after the last agent message */
            unread: number;
            /** @description The latest message (not notes or events); null before any */
            last_message: {
                /** @description Its plain text */
                text: string | null;
                /**
                 * Format: date-time
                 * @description When it was written; ISO-8601 UTC with milliseconds
                 */
                created_at: string;
            } | null;
            /**
             * Format: date-time
             * @description When it started (its earliest message, or its creation); ISO-8601 UTC with milliseconds
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When it last changed; ISO-8601 UTC with milliseconds
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When it was closed; null while not closed; ISO-8601 UTC with milliseconds
             */
            finished_at: string | null;
            /**
             * @description Who closed it; null while not closed
             * @enum {string|null}
             */
            close_type: "agent" | "contact" | "inactivity" | null;
        };
        /** conversation_details */
        conversation_details: {
            /** @description Conversation id (`co` + 12 characters) */
            id: string;
            /** @description The caller's own id, unique per account */
            ext_id: string | null;
            /**
             * @description `pending` (no contact message), `open` (waiting for an agent), `served` (an agent assigned or replied), `closed`
             * @enum {string}
             */
            status: "pending" | "open" | "served" | "closed";
            /** @description The channel it came through */
            channel: {
                /**
                 * @description Always `default`
                 * @enum {string}
                 */
                type: "default";
                /** @description Always null */
                id: null;
            };
            /** @description The contact it is with */
            contact_id: string;
            /** @description The group it is routed to, or null */
            group_id: string | null;
            /** @description Host of the first path recorded; null before any */
            domain: string | null;
            /** @description Agents assigned to it */
            assigned_ids: string[];
            /** @description Agents who have written in it */
            agent_ids: string[];
            /** @description Tag ids */
            tags: string[];
            /** @description Flat object of string keys to string, number or boolean values */
            variables: {
                [key: string]: unknown;
            };
            /** @description The rating, 1, 3 or 5; null when not rated */
            rating_value: number | null;
            /** @description The rating's comment */
            rating_text: string | null;
            /**
             * Format: date-time
             * @description When it was last rated; ISO-8601 UTC with milliseconds
             */
            rated_at: string | null;
            /** @description Its first contact message was offline */
            is_offline: boolean;
            /** @description An agent has been assigned or has replied */
            is_served: boolean;
            /** @description Contact messages after the last agent message */
            unread: number;
            /** @description The latest message (not notes or events); null before any */
            last_message: {
                /** @description Its plain text */
                text: string | null;
                /**
                 * Format: date-time
                 * @description When it was written; ISO-8601 UTC with milliseconds
                 */
                created_at: string;
            } | null;
            /**
             * Format: date-time
             * @description When it started (its earliest message, or its creation); ISO-8601 UTC with milliseconds
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When it last changed; ISO-8601 UTC with milliseconds
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When it was closed; null while not closed; ISO-8601 UTC with milliseconds
             */
            finished_at: string | null;
            /**
             * @description Who closed it; null while not closed
             * @enum {string|null}
             */
            close_type: "agent" | "contact" | "inactivity" | null;
            /** @description The last 200, oldest first */
            messages?: components["schemas"]["message"][];
            /** @description The last 200, oldest first */
            paths?: components["schemas"]["path"][];
            statistics?: components["schemas"]["conversation_statistics"];
        };
        /** conversation_search_hit */
        conversation_search_hit: {
            /** @description Conversation id (`co` + 12 characters) */
            id: string;
            /** @description The caller's own id, unique per account */
            ext_id: string | null;
            /**
             * @description `pending` (no contact message), `open` (waiting for an agent), `served` (an agent assigned or replied), `closed`
             * @enum {string}
             */
            status: "pending" | "open" | "served" | "closed";
            /** @description The channel it came through */
            channel: {
                /**
                 * @description Always `default`
                 * @enum {string}
                 */
                type: "default";
                /** @description Always null */
                id: null;
            };
            /** @description The contact it is with */
            contact_id: string;
            /** @description The group it is routed to, or null */
            group_id: string | null;
            /** @description Host of the first path recorded; null before any */
            domain: string | null;
            /** @description Agents assigned to it */
            assigned_ids: string[];
            /** @description Agents who have written in it */
            agent_ids: string[];
            /** @description Tag ids */
            tags: string[];
            /** @description Flat object of string keys to string, number or boolean values */
            variables: {
                [key: string]: unknown;
            };
            /** @description The rating, 1, 3 or 5; null when not rated */
            rating_value: number | null;
            /** @description The rating's comment */
            rating_text: string | null;
            /**
             * Format: date-time
             * @description When it was last rated; ISO-8601 UTC with milliseconds
             */
            rated_at: string | null;
            /** @description Its first contact message was offline */
            is_offline: boolean;
            /** @description An agent has been assigned or has replied */
            is_served: boolean;
            /** @description Contact messages after the last agent message */
            unread: number;
            /** @description The latest message (not notes or events); null before any */
            last_message: {
                /** @description Its plain text */
                text: string | null;
                /**
                 * Format: date-time
                 * @description When it was written; ISO-8601 UTC with milliseconds
                 */
                created_at: string;
            } | null;
            /**
             * Format: date-time
             * @description When it started (its earliest message, or its creation); ISO-8601 UTC with milliseconds
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When it last changed; ISO-8601 UTC with milliseconds
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When it was closed; null while not closed; ISO-8601 UTC with milliseconds
             */
            finished_at: string | null;
            /**
             * @description Who closed it; null while not closed
             * @enum {string|null}
             */
            close_type: "agent" | "contact" | "inactivity" | null;
            /** @description With a `query`: the best matching message around the match; null when only the contact's name or e-mail matched */
            snippet?: {
                /** @description Plain text around the match from the best matching message (never HTML) */
                text: string;
                /** @description The matched words, in order */
                matches: number[][];
            } | null;
        };
        /** conversation_search_page */
        conversation_search_page: {
            /** @description In the order asked for */
            items: components["schemas"]["conversation_search_hit"][];
            /** @description Pass as `after` (with the same body) for the next page; null on the last page */
            after: string | null;
        };
        /**
         * conversation_statistics
         * @description Counts and times of the conversation (statistics=true)
         */
        conversation_statistics: {
            /** @description Messages of every sub_type (not notes or events) */
            messages_count: number;
            /** @description Messages from the contact */
            contact_messages_count: number;
            /** @description Messages from agents */
            agent_messages_count: number;
            /** @description response_time of the first reply, seconds; null before one */
            first_response_time: number | null;
            /** @description Mean response_time of the replies, seconds; null before one */
            avg_response_time: number | null;
            /** @description finished_at - created_at in seconds; null while not closed */
            duration: number | null;
        };
        /** created_token */
        created_token: {
            /** @description `tk` + 12 characters; DELETE /v2/tokens/{id} revokes it */
            id: string;
            /** @description What the token is for */
            name: string;
            /** @description Any of: agents:read, agents:manage, bots:read, contacts:write, contacts:read, conversations:create, conversations:read, conversations:write, statistics:read, events:read, account:manage */
            scopes: ("agents:read" | "agents:manage" | "bots:read" | "contacts:write" | "contacts:read" | "conversations:create" | "conversations:read" | "conversations:write" | "statistics:read" | "events:read" | "account:manage")[];
            /** @description The bearer token: shown here only, never again */
            token: string;
            /**
             * Format: date-time
             * @description ISO-8601 UTC with milliseconds
             */
            created_at: string;
        };
        /** created_webhook */
        created_webhook: {
            /**
             * @description `wh` + 12 characters
             * @example whK3mS0q9ZbX1a
             */
            id: string;
            /** @description Where the events are POSTed */
            url: string;
            /** @description Event types to send; null or absent: every type */
            events: ("conversation.opened" | "conversation.updated" | "conversation.closed" | "conversation.rated" | "conversation.agent_assigned" | "conversation.agent_unassigned" | "conversation.contact_replied" | "conversation.agent_replied" | "conversation.bot_replied" | "conversation.agent_typing" | "conversation.contact_typing" | "contact.created" | "contact.deleted" | "agent.updated")[] | null;
            /**
             * Format: date-time
             * @description ISO-8601 UTC with milliseconds
             */
            created_at: string;
            /** @description Shown here only: verify webhook-signature (Standard Webhooks) or the legacy X-Chat-Service-Hmac with it */
            secret: string;
        };
        /**
         * empty_body
         * @description No body is needed; an empty JSON object is accepted, and any property in it is refused (422).
         */
        empty_body: Record<string, never>;
        /** error_payload */
        error_payload: {
            /** @description Machine-readable error code */
            code: "bad_request" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "too_many_requests" | "request_timeout" | "internal_error" | "service_unavailable" | "invalid_arguments" | "invalid_parameters" | "agent_not_found" | "contact_not_found" | "group_not_found" | "tag_not_found" | "no_contact_message" | "invalid_attachment_data" | "idempotency_key_in_use" | "idempotency_key_reused" | "upload_quota_exceeded" | "invalid_identity";
            /** @description Human-readable explanation */
            message: string;
            /** @description One item per problem, for validation errors */
            errors?: {
                /** @description Where the problem is, from the root: `messages[0].sub_type` */
                path: string;
                /** @description The rule that failed: `enum`, `required`, `type`, `unique`, ... */
                code: string;
                /** @description The problem as a sentence naming the path */
                message: string;
                /** @description Which part of the request: `body`, `query`, `path` or `header` (`Idempotency-Key`) */
                location: "body" | "query" | "path" | "header";
            }[];
            /** @description Present on internal errors, to find the log lines */
            request_id?: string;
        };
        /** exported_conversation */
        exported_conversation: {
            /** @description Conversation id (`co` + 12 characters) */
            id: string;
            /** @description The caller's own id, unique per account */
            ext_id: string | null;
            /**
             * @description `pending` (no contact message), `open` (waiting for an agent), `served` (an agent assigned or replied), `closed`
             * @enum {string}
             */
            status: "pending" | "open" | "served" | "closed";
            /** @description The channel it came through */
            channel: {
                /**
                 * @description Always `default`
                 * @enum {string}
                 */
                type: "default";
                /** @description Always null */
                id: null;
            };
            /** @description The contact it is with */
            contact_id: string;
            /** @description The group it is routed to, or null */
            group_id: string | null;
            /** @description Host of the first path recorded; null before any */
            domain: string | null;
            /** @description Agents assigned to it */
            assigned_ids: string[];
            /** @description Agents who have written in it */
            agent_ids: string[];
            /** @description Tag ids */
            tags: string[];
            /** @description Flat object of string keys to string, number or boolean values */
            variables: {
                [key: string]: unknown;
            };
            /** @description The rating, 1, 3 or 5; null when not rated */
            rating_value: number | null;
            /** @description The rating's comment */
            rating_text: string | null;
            /**
             * Format: date-time
             * @description When it was last rated; ISO-8601 UTC with milliseconds
             */
            rated_at: string | null;
            /** @description Its first contact message was offline */
            is_offline: boolean;
            /** @description An agent has been assigned or has replied */
            is_served: boolean;
            /** @description Contact messages after the last agent message */
            unread: number;
            /** @description The latest message (not notes or events); null before any */
            last_message: {
                /** @description Its plain text */
                text: string | null;
                /**
                 * Format: date-time
                 * @description When it was written; ISO-8601 UTC with milliseconds
                 */
                created_at: string;
            } | null;
            /**
             * Format: date-time
             * @description When it started (its earliest message, or its creation); ISO-8601 UTC with milliseconds
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When it last changed; ISO-8601 UTC with milliseconds
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When it was closed; null while not closed; ISO-8601 UTC with milliseconds
             */
            finished_at: string | null;
            /**
             * @description Who closed it; null while not closed
             * @enum {string|null}
             */
            close_type: "agent" | "contact" | "inactivity" | null;
            /** @description Every message, oldest first */
            messages: components["schemas"]["message"][];
            /** @description Every path, oldest first */
            paths: components["schemas"]["path"][];
            /** @description The uploads its messages attach */
            uploads: components["schemas"]["exported_upload"][];
        };
        /** exported_upload */
        exported_upload: {
            /** @description Upload id (`up` + 12 characters) */
            id: string;
            /** @description File name */
            file_name: string;
            /** @description MIME type as stored */
            file_type: string;
            /** @description Bytes */
            size: number;
            /**
             * Format: date-time
             * @description ISO-8601 UTC with milliseconds
             */
            created_at: string;
            /** @description Download link: GET it with a `conversations:read` token */
            url: string;
        };
        /**
         * group
         * @description A group routes conversations to its agents (a conversation `group_id`, an agent `group_ids`) and filters statistics.
         */
        group: {
            /**
             * @description `gr` + 12 characters
             * @example grq3F0xXb2Lk9A
             */
            id: string;
            /** @description Display name; not unique */
            name: string;
            /**
             * Format: date-time
             * @description ISO-8601 UTC with milliseconds
             */
            created_at: string;
        };
        /** group_list */
        group_list: {
            /** @description Oldest first */
            groups: components["schemas"]["group"][];
        };
        /** health */
        health: {
            /**
             * @description Always `ok`; a failure answers with an error status instead
             * @enum {string}
             */
            status: "ok";
        };
        /** legacy_agent */
        legacy_agent: {
            /** @description The agent id as a number */
            userId: number;
            /** @description The agent nickname (else full name, else e-mail) */
            nickname: string;
            /** @description Chats closed by an agent or the contact with every contact message answered */
            completed: number;
            /** @description Completed chats that lasted under 3 minutes */
            completed1to3: number;
            /** @description Completed chats that lasted 3 to under 5 minutes */
            completed3to5: number;
            /** @description Completed chats that lasted 5 to under 10 minutes */
            completed5to10: number;
            /** @description Completed chats that lasted 10 minutes or more */
            completed10toInf: number;
            /** @description Chats closed by the inactivity timeout */
            dropped: number;
            /** @description Dropped chats whose last message was the agent’s */
            droppedByVisitorInactivity: number;
            /** @description Dropped chats whose last message was the contact’s */
            droppedByAgentInactivity: number;
            /** @description Conversations with a bot or trigger message */
            triggered: number;
            /** @description Mean duration of completed and dropped chats (rounded), in seconds */
            avgDuration: number;
            /** @description Mean first-reply response time in completed and dropped chats (rounded), in seconds */
            avgFirstResponse: number;
            /** @description Mean reply response time in completed and dropped chats (rounded), in seconds */
            avgResponse: number;
            /** @description Summed duration of completed and dropped chats, in seconds */
            totalDuration: number;
        };
        /** legacy_agent_record */
        legacy_agent_record: {
            /** @description day `2024-03-05`, week `2024-W10`, month `2024-03` */
            unitId: string;
            /** @description day `Mar 5`, week `W10`, month `Mar 2024` */
            unitName: string;
            /** @description day `Tuesday, March 5, 2024`, week `Mar 4 - Mar 10, 2024`, month `March 2024` */
            unitLongName: string;
            /** @description The agent id as a number */
            userId: number;
            /** @description The agent nickname (else full name, else e-mail) */
            nickname: string;
            /** @description Chats closed by an agent or the contact with every contact message answered */
            completed: number;
            /** @description Completed chats that lasted under 3 minutes */
            completed1to3: number;
            /** @description Completed chats that lasted 3 to under 5 minutes */
            completed3to5: number;
            /** @description Completed chats that lasted 5 to under 10 minutes */
            completed5to10: number;
            /** @description Completed chats that lasted 10 minutes or more */
            completed10toInf: number;
            /** @description Chats closed by the inactivity timeout */
            dropped: number;
            /** @description Dropped chats whose last message was the agent’s */
            droppedByVisitorInactivity: number;
            /** @description Dropped chats whose last message was the contact’s */
            droppedByAgentInactivity: number;
            /** @description Conversations with a bot or trigger message */
            triggered: number;
            /** @description Mean duration of completed and dropped chats (rounded), in seconds */
            avgDuration: number;
            /** @description Mean first-reply response time in completed and dropped chats (rounded), in seconds */
            avgFirstResponse: number;
            /** @description Mean reply response time in completed and dropped chats (rounded), in seconds */
            avgResponse: number;
            /** @description Summed duration of completed and dropped chats, in seconds */
            totalDuration: number;
        };
        /** legacy_agents_response */
        legacy_agents_response: {
            /** @enum {boolean} */
            success: true;
            /** @description The range actually counted, defaults applied (YYYY-MM-DD, account time zone) */
            interval: {
                /** @description First day counted */
                from: string;
                /** @description Last day counted */
                to: string;
            };
            /** @description One record per agent and unit, by unit then userId */
            records: components["schemas"]["legacy_agent_record"][];
        };
        /** legacy_error */
        legacy_error: {
            /** @enum {boolean} */
            success: false;
            error: {
                /** @description `unauthorized` (bad apiKey), `invalid_parameters`, ... */
                code: string;
                /** @description Names the parameter at fault */
                message: string;
            };
        };
        /** legacy_overview */
        legacy_overview: {
            /** @description Distinct contacts */
            visitors: number;
            /** @description Conversations */
            channels: number;
            /** @description Conversations where both the contact and an agent wrote */
            chats: number;
            /** @description Chats closed by an agent or the contact with every contact message answered */
            completed: number;
            /** @description Completed chats that lasted under 3 minutes */
            completed1to3: number;
            /** @description Completed chats that lasted 3 to under 5 minutes */
            completed3to5: number;
            /** @description Completed chats that lasted 5 to under 10 minutes */
            completed5to10: number;
            /** @description Completed chats that lasted 10 minutes or more */
            completed10toInf: number;
            /** @description Chats closed by the inactivity timeout */
            dropped: number;
            /** @description Dropped chats whose last message was the agent’s */
            droppedByVisitorInactivity: number;
            /** @description Dropped chats whose last message was the contact’s */
            droppedByAgentInactivity: number;
            /** @description Conversations with a bot or trigger message */
            triggered: number;
            /** @description Mean duration of completed and dropped chats (rounded), in seconds */
            avgDuration: number;
            /** @description Mean first-reply response time in completed and dropped chats (rounded), in seconds */
            avgFirstResponse: number;
            /** @description Mean reply response time in completed and dropped chats (rounded), in seconds */
            avgResponse: number;
            /** @description Summed duration of completed and dropped chats, in seconds */
            totalDuration: number;
            /** @description Conversations where the contact wrote, no agent answered, and the first contact message was not offline */
            missed: number;
            /** @description Conversations whose first contact message was offline */
            offline: number;
        };
        /** legacy_overview_record */
        legacy_overview_record: {
            /** @description day `2024-03-05`, week `2024-W10`, month `2024-03` */
            unitId: string;
            /** @description day `Mar 5`, week `W10`, month `Mar 2024` */
            unitName: string;
            /** @description day `Tuesday, March 5, 2024`, week `Mar 4 - Mar 10, 2024`, month `March 2024` */
            unitLongName: string;
            /** @description Distinct contacts */
            visitors: number;
            /** @description Conversations */
            channels: number;
            /** @description Conversations where both the contact and an agent wrote */
            chats: number;
            /** @description Chats closed by an agent or the contact with every contact message answered */
            completed: number;
            /** @description Completed chats that lasted under 3 minutes */
            completed1to3: number;
            /** @description Completed chats that lasted 3 to under 5 minutes */
            completed3to5: number;
            /** @description Completed chats that lasted 5 to under 10 minutes */
            completed5to10: number;
            /** @description Completed chats that lasted 10 minutes or more */
            completed10toInf: number;
            /** @description Chats closed by the inactivity timeout */
            dropped: number;
            /** @description Dropped chats whose last message was the agent’s */
            droppedByVisitorInactivity: number;
            /** @description Dropped chats whose last message was the contact’s */
            droppedByAgentInactivity: number;
            /** @description Conversations with a bot or trigger message */
            triggered: number;
            /** @description Mean duration of completed and dropped chats (rounded), in seconds */
            avgDuration: number;
            /** @description Mean first-reply response time in completed and dropped chats (rounded), in seconds */
            avgFirstResponse: number;
            /** @description Mean reply response time in completed and dropped chats (rounded), in seconds */
            avgResponse: number;
            /** @description Summed duration of completed and dropped chats, in seconds */
            totalDuration: number;
            /** @description Conversations where the contact wrote, no agent answered, and the first contact message was not offline */
            missed: number;
            /** @description Conversations whose first contact message was offline */
            offline: number;
        };
        /** legacy_overview_response */
        legacy_overview_response: {
            /** @enum {boolean} */
            success: true;
            /** @description The range actually counted, defaults applied (YYYY-MM-DD, account time zone) */
            interval: {
                /** @description First day counted */
                from: string;
                /** @description Last day counted */
                to: string;
            };
            /** @description One record per unit overlapping the range, keyed by unitId */
            records: {
                [key: string]: components["schemas"]["legacy_overview_record"];
            };
        };
        /** legacy_totals_response */
        legacy_totals_response: {
            /** @enum {boolean} */
            success: true;
            /** @description The range actually counted, defaults applied (YYYY-MM-DD, account time zone) */
            interval: {
                /** @description First day counted */
                from: string;
                /** @description Last day counted */
                to: string;
            };
            overview: components["schemas"]["legacy_overview"];
            agents: components["schemas"]["legacy_agent"][];
        };
        /** message */
        message: {
            /** @description Message id (`ms` + 12 characters) */
            id: string;
            /** @description The conversation it belongs to */
            conversation_id: string;
            /**
             * @description `message`; `note` (internal); `event` (a system record such as an assignment)
             * @enum {string}
             */
            type: "message" | "note" | "event";
            /**
             * @description Who wrote it; `system` for events
             * @enum {string}
             */
            sub_type: "contact" | "agent" | "bot" | "trigger" | "system";
            /** @description The writing agent, or for events the acting agent */
            agent_id: string | null;
            /** @description The bot trigger that sent it, for trigger messages */
            trigger_id: string | null;
            /** @description `{type: "text", text, html}`; events `{type, text: null, data}` */
            content: {
                /** @description `text`, or for event messages the event (`agent_assigned`, `agent_unassigned`) */
                type: string;
                /** @description Plain text (derived from html when only html was given); null for events */
                text: string | null;
                /** @description Sanitised HTML, or null */
                html?: string | null;
                /** @description Events: `{agent_id}` of the agent assigned or unassigned */
                data?: {
                    [key: string]: unknown;
                };
            };
            /** @description Attachments as stored */
            attachments: components["schemas"]["stored_attachment"][];
            /** @description An agent message answering one or more unanswered contact messages */
            is_reply: boolean;
            /** @description The conversation's first reply */
            is_first_reply: boolean;
            /** @description A contact message sent while no agent (of the group) was available */
            is_offline: boolean;
            /** @description A reply whose unanswered contact messages include an offline one */
            is_offline_reply: boolean;
            /** @description Replies: seconds from the earliest unanswered contact message; otherwise null */
            response_time: number | null;
            /**
             * Format: date-time
             * @description When it was written; ISO-8601 UTC with milliseconds
             */
            created_at: string;
        };
        /** messages_collection */
        messages_collection: {
            /** @description Newest first */
            items: components["schemas"]["message"][];
            /** @description Pass as `after` for the next page; null on the last page */
            after: string | null;
            /** @description Messages in the conversation */
            total: number;
        };
        /** ok_response */
        ok_response: {
            /**
             * @description Always true: the operation succeeded
             * @enum {boolean}
             */
            ok: true;
        };
        /** path */
        path: {
            /** @description URL of the page visited */
            url: string;
            /** @description Title of the page */
            title: string | null;
            /**
             * Format: date-time
             * @description When it was recorded; ISO-8601 UTC with milliseconds
             */
            created_at: string;
        };
        /** paths_collection */
        paths_collection: {
            /** @description Newest first */
            items: components["schemas"]["path"][];
            /** @description Pass as `after` for the next page; null on the last page */
            after: string | null;
            /** @description Paths in the conversation */
            total: number;
        };
        /** rotated_api_key */
        rotated_api_key: {
            /** @description The new legacy apiKey (`ak_` + 32 characters), in this response only; the old one stops working at once */
            api_key: string;
        };
        /** rotated_identity_secret */
        rotated_identity_secret: {
            /** @description The new secret signing visitor identities (`wis_` + 40 characters), in this response only; the old one stops verifying */
            widget_identity_secret: string;
        };
        /** rotated_webhook_secret */
        rotated_webhook_secret: {
            /**
             * @description `wh` + 12 characters
             * @example whK3mS0q9ZbX1a
             */
            id: string;
            /** @description Where the events are POSTed */
            url: string;
            /** @description Event types to send; null or absent: every type */
            events: ("conversation.opened" | "conversation.updated" | "conversation.closed" | "conversation.rated" | "conversation.agent_assigned" | "conversation.agent_unassigned" | "conversation.contact_replied" | "conversation.agent_replied" | "conversation.bot_replied" | "conversation.agent_typing" | "conversation.contact_typing" | "contact.created" | "contact.deleted" | "agent.updated")[] | null;
            /**
             * Format: date-time
             * @description ISO-8601 UTC with milliseconds
             */
            created_at: string;
            /** @description Shown here only: verify webhook-signature (Standard Webhooks) or the legacy X-Chat-Service-Hmac with it */
            secret: string;
            /**
             * Format: date-time
             * @description Until when the replaced secret signs too (webhook-signature carries both); null with overlap_seconds 0
             */
            previous_secret_expires_at: string | null;
        };
        /** rotated_widget_key */
        rotated_widget_key: {
            /** @description The new public widget key; the old one starts no session, and every visitor token is revoked */
            widget_key: string;
        };
        /**
         * signed_identity
         * @description Who the visitor is, as the site signed it on its server (docs/widget.md "Identity verification")
         */
        signed_identity: {
            /** @description The site's own id of the signed-in visitor (the contact's identity_id) */
            id: string;
            /** @description Their name; null or absent: none */
            name?: string | null;
            /** @description Their e-mail address; null or absent: none */
            email?: string | null;
            /** @description Unix time in seconds after which the signature is refused; at most 24 hours ahead */
            expires_at: number;
            /** @description Hex HMAC-SHA256, keyed with the identity secret, of `id\nname\nemail\nexpires_at` (docs/widget.md) */
            signature: string;
        };
        /** statistics_request_entry */
        statistics_request_entry: {
            /**
             * @description The metric
             * @enum {string}
             */
            name: "response_time" | "first_response_time" | "time_to_close" | "time_to_close_sum" | "new_conversation" | "closed_conversation" | "conversation_ratings";
            /** @description Inclusive; a missing or null end is open */
            range: {
                /**
                 * @description Local time in the request zone, `YYYY-MM-DDTHH:MM:SS` (optionally `.mmm`), inclusive at its precision; with `Z` or an offset it is an absolute instant; null leaves that end open
                 * @example 2024-03-01T00:00:00
                 */
                from?: string | null;
                /**
                 * @description Local time in the request zone, `YYYY-MM-DDTHH:MM:SS` (optionally `.mmm`), inclusive at its precision; with `Z` or an offset it is an absolute instant; null leaves that end open
                 * @example 2024-03-01T00:00:00
                 */
                to?: string | null;
            };
            query?: {
                /** @description A field of the metric's source object (the fields per source: docs/api.md, Statistics, Filters) */
                field: string;
                /** @description A value, or an array of values of which any may match; array fields match when they contain it */
                value: string | number | boolean | (string | number | boolean)[];
            }[];
            /** @description Nested levels, outermost first */
            aggs?: {
                /**
                 * @description `date` buckets by time, `terms` by the values of a field
                 * @enum {string}
                 */
                type: "date" | "terms";
                /**
                 * @description date: the bucket interval
                 * @enum {string}
                 */
                interval?: "day" | "week" | "month" | "year" | "day_of_week" | "hour_of_day";
                /** @description date: Moment.js tokens for the bucket key */
                format?: string;
                /** @description terms: the field whose values make the buckets */
                field?: string;
            }[];
        };
        /** statistics_response */
        statistics_response: {
            [key: string]: components["schemas"]["statistics_result_entry"];
        };
        /** statistics_result_entry */
        statistics_result_entry: {
            name: string;
            /** @description The aggregate over every matching object (seconds for times) */
            value: number;
            /** @description How many objects match */
            count: number;
            buckets: {
                key: string;
                count: number;
                value: number;
                buckets: {
                    key: string;
                    count: number;
                    value: number;
                    buckets: {
                        key: string;
                        count: number;
                        value: number;
                        buckets: null;
                    }[] | null;
                }[] | null;
            }[] | null;
        };
        /** stored_attachment */
        stored_attachment: {
            /**
             * @description attachment_type: image, file, upload or template
             * @enum {string}
             */
            type: "image" | "file" | "upload" | "template";
            /** @description image/file: as given; upload: the download route */
            url?: string;
            /** @description image/file: as given or the last path segment of url; upload: the uploaded name */
            file_name?: string;
            /** @description MIME type: image/file as given (else null); upload: as uploaded */
            file_type?: string | null;
            /** @description upload: bytes */
            size?: number;
            /**
             * @description template: `carousel`
             * @enum {string}
             */
            layout?: "carousel";
            /** @description template: the carousel cards */
            items?: {
                /** @description Card title, at most 100 characters */
                title: string;
                /** @description Card text, at most 1024 characters */
                description?: string;
                /** @description At most 32 characters, pre-formatted by the caller, not computed */
                price?: string;
                /** @description URL of the card image; http:// or https:// with a host */
                image?: string;
                /** @description Exactly one open_url action */
                actions: {
                    /**
                     * @description Always `open_url`
                     * @enum {string}
                     */
                    type: "open_url";
                    /** @description Button label */
                    title: string;
                    /** @description URL to open; http:// or https:// with a host */
                    value: string;
                }[];
            }[];
        };
        /**
         * tag
         * @description A tag labels conversations (their `tags`) and filters statistics.
         */
        tag: {
            /**
             * @description `tg` + 12 characters
             * @example tgW1c9JrT0qP4m
             */
            id: string;
            /** @description Display name; not unique */
            name: string;
            /**
             * Format: date-time
             * @description ISO-8601 UTC with milliseconds
             */
            created_at: string;
        };
        /** tag_list */
        tag_list: {
            /** @description Oldest first */
            tags: components["schemas"]["tag"][];
        };
        /** token */
        token: {
            /** @description `tk` + 12 characters */
            id: string;
            /** @description What the token is for */
            name: string;
            /** @description Any of: agents:read, agents:manage, bots:read, contacts:write, contacts:read, conversations:create, conversations:read, conversations:write, statistics:read, events:read, account:manage */
            scopes: ("agents:read" | "agents:manage" | "bots:read" | "contacts:write" | "contacts:read" | "conversations:create" | "conversations:read" | "conversations:write" | "statistics:read" | "events:read" | "account:manage")[];
            /**
             * Format: date-time
             * @description ISO-8601 UTC with milliseconds
             */
            created_at: string;
        };
        /** token_list */
        token_list: {
            /** @description Tokens not revoked; secrets are never listed */
            tokens: components["schemas"]["token"][];
        };
        /** upload */
        upload: {
            /** @description Use as `token` of an `upload` attachment in this account, within 24 hours */
            token: string;
            /** @description The stored file name (last path segment of the given name) */
            file_name: string;
            /** @description MIME type as sent (the part or request Content-Type); application/octet-stream when missing or malformed */
            file_type: string;
            /** @description Bytes */
            size: number;
        };
        /** visitor_attachment */
        visitor_attachment: {
            /**
             * @description Always `upload`: a file the visitor sent with POST /widget/v1/uploads
             * @enum {string}
             */
            type: "upload";
            /** @description The `token` POST /widget/v1/uploads answered, valid 24 hours */
            token: string;
        };
        /**
         * visitor_conversation
         * @description A conversation as its visitor sees it: no agents' internal fields
         */
        visitor_conversation: {
            /** @description Conversation id */
            id: string;
            /**
             * @description `pending` (no contact message), `open` (waiting for an agent), `served` (an agent assigned or replied), `closed`
             * @enum {string}
             */
            status: "pending" | "open" | "served" | "closed";
            /** @description The visitor's rating, 1, 3 or 5; null when not rated */
            rating_value: number | null;
            /** @description The rating's comment */
            rating_text: string | null;
            /** @description The latest message; null before any */
            last_message: {
                /** @description Its plain text */
                text: string | null;
                /**
                 * Format: date-time
                 * @description When it was written; ISO-8601 UTC with milliseconds
                 */
                created_at: string;
            } | null;
            /**
             * Format: date-time
             * @description When it started; ISO-8601 UTC with milliseconds
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When it last changed; ISO-8601 UTC with milliseconds
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When it was closed; null while open; ISO-8601 UTC with milliseconds
             */
            finished_at: string | null;
        };
        /** visitor_conversation_list */
        visitor_conversation_list: {
            /** @description The visitor's conversations, newest first (at most 100) */
            items: components["schemas"]["visitor_conversation"][];
        };
        /**
         * visitor_message
         * @description A message as the visitor sees it: notes and system records are never shown
         */
        visitor_message: {
            /** @description Message id */
            id: string;
            /** @description The conversation it belongs to */
            conversation_id: string;
            /**
             * @description Who wrote it: `contact` (the visitor), `agent`, `bot` or `trigger`
             * @enum {string}
             */
            sub_type: "contact" | "agent" | "bot" | "trigger";
            /** @description Plain text */
            text: string | null;
            /** @description Sanitised HTML (only a and br), or null */
            html: string | null;
            /** @description Attachments */
            attachments: components["schemas"]["stored_attachment"][];
            /** @description The visitor's message was sent while no agent (of its group) was available: the widget shows its offline notice */
            is_offline: boolean;
            /**
             * Format: date-time
             * @description When it was written; ISO-8601 UTC with milliseconds
             */
            created_at: string;
        };
        /** visitor_messages_page */
        visitor_messages_page: {
            /** @description Newest first */
            items: components["schemas"]["visitor_message"][];
            /** @description Pass as `after` for the next page; null on the last page */
            after: string | null;
            /** @description Messages in the conversation the visitor can see */
            total: number;
        };
        /** visitor_session */
        visitor_session: {
            /** @description The visitor token (`vt_` + 43 characters): `Authorization: Bearer <token>` on the other /widget/v1 operations */
            token: string;
            /** @description The contact the visitor chats as */
            contact_id: string;
        };
        /** webhook */
        webhook: {
            /**
             * @description `wh` + 12 characters
             * @example whK3mS0q9ZbX1a
             */
            id: string;
            /** @description Where the events are POSTed */
            url: string;
            /** @description Event types to send; null or absent: every type */
            events: ("conversation.opened" | "conversation.updated" | "conversation.closed" | "conversation.rated" | "conversation.agent_assigned" | "conversation.agent_unassigned" | "conversation.contact_replied" | "conversation.agent_replied" | "conversation.bot_replied" | "conversation.agent_typing" | "conversation.contact_typing" | "contact.created" | "contact.deleted" | "agent.updated")[] | null;
            /**
             * Format: date-time
             * @description ISO-8601 UTC with milliseconds
             */
            created_at: string;
        };
        /** webhook_delivery_attempt */
        webhook_delivery_attempt: {
            /** @description The delivered event (its `id` in the envelope) */
            event_id: number;
            /** @description The event type */
            event: string;
            /** @description 1 for the first try of this event, 2 for its first retry, ... */
            attempt: number;
            /** @description The receiver's HTTP status; null when none came */
            status_code: number | null;
            /**
             * @description Why the attempt failed, null when a 2xx came: timeout, refused_address (the host does not resolve or resolves to a non-public address), connection_refused, connection_reset, network_unreachable, tls, protocol (not HTTP), http_status (a status other than 2xx), other
             * @enum {string|null}
             */
            error: "timeout" | "refused_address" | "connection_refused" | "connection_reset" | "network_unreachable" | "tls" | "protocol" | "http_status" | "other" | null;
            /** @description Seconds from sending to the response status (or the failure) */
            duration: number;
            /**
             * Format: date-time
             * @description ISO-8601 UTC with milliseconds
             */
            attempted_at: string;
            /**
             * Format: date-time
             * @description ISO-8601 UTC with milliseconds
             */
            next_attempt_at: string | null;
        };
        /** webhook_delivery_attempt_list */
        webhook_delivery_attempt_list: {
            /** @description The 100 most recent attempts, newest first (kept 7 days) */
            deliveries: components["schemas"]["webhook_delivery_attempt"][];
        };
        /** webhook_list */
        webhook_list: {
            /** @description The account's webhooks, oldest first; secrets are never listed */
            webhooks: components["schemas"]["webhook"][];
        };
    };
    responses: {
        /** @description A query, path parameter or body the operation does not allow (`invalid_arguments`); `errors` names each */
        invalid_arguments: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["error_payload"];
            };
        };
        /** @description The database is busy (`service_unavailable`): a lock or statement took longer than DB_LOCK_TIMEOUT_MS or DB_STATEMENT_TIMEOUT_MS; nothing was written, retry */
        service_unavailable: {
            headers: {
                /** @description Seconds to wait before retrying */
                "Retry-After"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["error_payload"];
            };
        };
        /** @description A method this path does not have (`method_not_allowed`); Allow lists those it has */
        method_not_allowed: {
            headers: {
                /** @description The methods of this path */
                Allow?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["error_payload"];
            };
        };
        /** @description Headers or body not received within HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS (`request_timeout`); the connection is closed */
        request_timeout: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["error_payload"];
            };
        };
        /** @description A path parameter over 2048 characters (`bad_request`) */
        uri_too_long: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["error_payload"];
            };
        };
        /** @description The request headers (the URL included) are over the size limit (`bad_request`); the connection is closed */
        headers_too_large: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["error_payload"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The health */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["health"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The health */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["health"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Dependency unavailable (`service_unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
        };
    };
    listAgents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agent list */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["agent_list"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            422: components["responses"]["invalid_arguments"];
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    createAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @description Unique among the account's agents, case-insensitively
                     */
                    email: string;
                    /** @description Full name */
                    full_name?: string | null;
                    /** @description Name shown to contacts */
                    nickname?: string | null;
                    /**
                     * @description Default `agent`
                     * @enum {string}
                     */
                    role?: "agent" | "admin" | "owner";
                    /** @description Groups of this account (unknown: 422 group_not_found) */
                    group_ids?: string[];
                };
            };
        };
        responses: {
            /** @description The agent */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["agent"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    getAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agent */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["agent"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            414: components["responses"]["uri_too_long"];
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    deleteAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        /** @description No body is needed; an empty JSON object is accepted, and any property in it is refused (422). */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["empty_body"];
            };
        };
        responses: {
            /** @description The ok response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ok_response"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    updateAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description agent_status
                     * @enum {string}
                     */
                    status?: "online" | "offline";
                };
            };
        };
        responses: {
            /** @description The agent */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["agent"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    pingAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        /** @description No body is needed; an empty JSON object is accepted, and any property in it is refused (422). */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["empty_body"];
            };
        };
        responses: {
            /** @description The ok response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ok_response"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["account"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            422: components["responses"]["invalid_arguments"];
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    updateAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Display name */
                    name?: string;
                    /** @description An IANA name such as `Europe/Paris` (else 422, code `format`) */
                    timezone?: string;
                    /** @description Replaces the list of origins allowed to run the widget (at most 100; `https://shop.example.com`, else 422 code `format`); [] turns it off */
                    widget_origins?: string[];
                    /** @description Require a signed identity for visitor sessions (needs an identity secret, else 422 code `required`) */
                    widget_identity_required?: boolean;
                };
            };
        };
        responses: {
            /** @description The account */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["account"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    rotateApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description No body is needed; an empty JSON object is accepted, and any property in it is refused (422). */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["empty_body"];
            };
        };
        responses: {
            /** @description The rotated api key */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["rotated_api_key"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    rotateWidgetKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description No body is needed; an empty JSON object is accepted, and any property in it is refused (422). */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["empty_body"];
            };
        };
        responses: {
            /** @description The rotated widget key */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["rotated_widget_key"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    rotateWidgetIdentitySecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description No body is needed; an empty JSON object is accepted, and any property in it is refused (422). */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["empty_body"];
            };
        };
        responses: {
            /** @description The rotated identity secret */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["rotated_identity_secret"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    listTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token list */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["token_list"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            422: components["responses"]["invalid_arguments"];
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description What the token is for */
                    name: string;
                    /** @description Any of: agents:read, agents:manage, bots:read, contacts:write, contacts:read, conversations:create, conversations:read, conversations:write, statistics:read, events:read, account:manage */
                    scopes: ("agents:read" | "agents:manage" | "bots:read" | "contacts:write" | "contacts:read" | "conversations:create" | "conversations:read" | "conversations:write" | "statistics:read" | "events:read" | "account:manage")[];
                };
            };
        };
        responses: {
            /** @description The created token */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["created_token"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        /** @description No body is needed; an empty JSON object is accepted, and any property in it is refused (422). */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["empty_body"];
            };
        };
        responses: {
            /** @description The ok response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ok_response"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    listGroups: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group list */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["group_list"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            422: components["responses"]["invalid_arguments"];
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    createGroup: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Display name; not unique */
                    name: string;
                };
            };
        };
        responses: {
            /** @description A group routes conversations to its agents (a conversation `group_id`, an agent `group_ids`) and filters statistics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["group"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    deleteGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        /** @description No body is needed; an empty JSON object is accepted, and any property in it is refused (422). */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["empty_body"];
            };
        };
        responses: {
            /** @description The ok response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ok_response"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    listTags: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tag list */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["tag_list"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            422: components["responses"]["invalid_arguments"];
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    createTag: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Display name; not unique */
                    name: string;
                };
            };
        };
        responses: {
            /** @description A tag labels conversations (their `tags`) and filters statistics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["tag"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    deleteTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        /** @description No body is needed; an empty JSON object is accepted, and any property in it is refused (422). */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["empty_body"];
            };
        };
        responses: {
            /** @description The ok response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ok_response"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    getBotTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bot trigger */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bot_trigger"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            414: components["responses"]["uri_too_long"];
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    listBots: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bot list */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bot_list"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            422: components["responses"]["invalid_arguments"];
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    createBot: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Display name */
                    name: string;
                    /** @description The bot’s one trigger; every field optional */
                    trigger?: {
                        /** @description Default true */
                        active?: boolean;
                        /**
                         * @description Default `conversation_opened`
                         * @enum {string}
                         */
                        event?: "conversation_opened" | "page_visit" | "idle";
                        /** @description Conditions the trigger matches on (free-form object) */
                        conditions?: {
                            [key: string]: unknown;
                        };
                        /** @description The message as `GET /v2/bots/{id}/trigger` returns it; not with `text` or `html` */
                        content?: {
                            /** @description Plain text of the message the trigger sends */
                            text?: string | null;
                            /** @description Sanitised like message HTML: only `a` and `br` survive; `text` defaults to its plain text */
                            html?: string | null;
                        };
                        /** @description Plain text of the message the trigger sends */
                        text?: string | null;
                        /** @description Sanitised like message HTML: only `a` and `br` survive; `text` defaults to its plain text */
                        html?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description The bot */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bot"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    deleteBot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        /** @description No body is needed; an empty JSON object is accepted, and any property in it is refused (422). */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["empty_body"];
            };
        };
        responses: {
            /** @description The ok response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ok_response"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    listContacts: {
        parameters: {
            query?: {
                /** @description A prefix of a word of the name, or of the e-mail address; case and diacritics ignored (`nova` finds Nováková) */
                q?: string;
                /** @description Items per page */
                size?: number;
                /** @description The `after` of the previous page, sent with the same `q` */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contacts page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["contacts_page"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Invalid request, an unknown query parameter included (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    createContact: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @description A valid address (422 code `format` otherwise)
                     */
                    email?: string | null;
                    /** @description Unique per account (a second use: 422 code `unique`) */
                    identity_id?: string | null;
                    /** @description Name */
                    name?: string | null;
                    /** @description Phone number, stored as given */
                    phone?: string | null;
                };
            };
        };
        responses: {
            /** @description A person who chats with the account, as GET /v2/contacts/{id} returns it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["contact"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    findContactByEmail: {
        parameters: {
            query?: {
                /** @description Matched case-insensitively; the most recently updated match wins */
                email?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A person who chats with the account, as GET /v2/contacts/{id} returns it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["contact"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Invalid request, an unknown query parameter included (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    getContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A person who chats with the account, as GET /v2/contacts/{id} returns it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["contact"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            414: components["responses"]["uri_too_long"];
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    eraseContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        /** @description No body is needed; an empty JSON object is accepted, and any property in it is refused (422). */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["empty_body"];
            };
        };
        responses: {
            /** @description The ok response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ok_response"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    exportContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Everything stored about the contact (GDPR articles 15 and 20) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["contact_export"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            414: components["responses"]["uri_too_long"];
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    createConversation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The contact it is with (unknown: 422 contact_not_found) */
                    contact_id: string;
                    /** @description Agents assigned at creation (unknown: 422 agent_not_found) */
                    assigned_ids?: string[];
                    /** @description Routes it to (makes it visible only to) agents of this group; unknown: 422 group_not_found */
                    group_id?: string | null;
                    /** @description The caller's own id, unique per account, for GET /conversations/find */
                    ext_id?: string | null;
                    /** @description variables: at most 50 keys of at most 64 characters; values strings (at most 1024 characters), numbers or booleans */
                    variables?: {
                        [key: string]: string | number | boolean;
                    };
                    /** @description Tag ids (unknown: 422 tag_not_found) */
                    tags?: string[];
                    /** @description Plain text of a single message */
                    text?: string;
                    /** @description HTML of a single message (at most 65536 characters); sanitised to a and br */
                    html?: string;
                    /** @description Messages to import */
                    messages?: {
                        /**
                         * @description Imported messages come from a contact or a bot
                         * @enum {string}
                         */
                        sub_type: "contact" | "bot";
                        /** @description The message content */
                        content: {
                            /**
                             * @description Always `text` (the default)
                             * @default text
                             * @enum {string}
                             */
                            type?: "text";
                            /** @description Plain text; text or html is required */
                            text?: string | null;
                            /** @description HTML (at most 65536 characters), sanitised: only a and br survive; links only http, https, mailto */
                            html?: string | null;
                        };
                        /** @description At most 5 attachments */
                        attachments?: components["schemas"]["attachment"][];
                        /**
                         * Format: date-time
                         * @description When it was written (RFC 3339 with a zone); not in the future; missing: now
                         */
                        created_at?: string;
                    }[];
                } & ({
                    messages?: never;
                } | {
                    text?: never;
                    html?: never;
                });
            };
        };
        responses: {
            /** @description The conversation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["conversation"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    findConversationByExtId: {
        parameters: {
            query: {
                /** @description The ext_id given on create or update */
                ext_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The conversation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["conversation"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Invalid request, an unknown query parameter included (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    getConversation: {
        parameters: {
            query?: {
                /** @description Include the last 200 messages, oldest first */
                messages?: boolean;
                /** @description Include the last 200 paths, oldest first */
                paths?: boolean;
                /** @description Include the conversation statistics */
                statistics?: boolean;
            };
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The conversation details */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["conversation_details"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            414: components["responses"]["uri_too_long"];
            /** @description Invalid request, an unknown query parameter included (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    updateConversation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Routes it to (makes it visible only to) agents of this group; unknown: 422 group_not_found */
                    group_id?: string | null;
                    /** @description Tag ids (unknown: 422 tag_not_found) */
                    tags?: string[];
                    /** @description variables: at most 50 keys of at most 64 characters; values strings (at most 1024 characters), numbers or booleans */
                    variables?: {
                        [key: string]: string | number | boolean;
                    };
                    /** @description The caller's own id, unique per account, for GET /conversations/find */
                    ext_id?: string | null;
                };
            };
        };
        responses: {
            /** @description The conversation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["conversation"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    assignAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The acting agent */
                    agent_id: string;
                    /** @description The agent being assigned */
                    assignee_id: string;
                };
            };
        };
        responses: {
            /** @description The conversation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["conversation"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    unassignAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The acting agent */
                    agent_id: string;
                    /** @description The agent being unassigned */
                    unassignee_id: string;
                };
            };
        };
        responses: {
            /** @description The conversation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["conversation"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    closeConversation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        /** @description No body is needed; an empty JSON object is accepted, and any property in it is refused (422). */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["empty_body"];
            };
        };
        responses: {
            /** @description The ok response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ok_response"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    signalAgentTyping: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The agent typing (unknown: 422 agent_not_found) */
                    agent_id: string;
                    /** @description true while the agent types (send again every few seconds); false when they stop or send */
                    is_typing: boolean;
                };
            };
        };
        responses: {
            /** @description The ok response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ok_response"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    listMessages: {
        parameters: {
            query?: {
                /** @description Items per page */
                size?: number;
                /** @description The `after` of the previous page */
                after?: string;
            };
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The messages collection */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["messages_collection"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            414: components["responses"]["uri_too_long"];
            /** @description Invalid request, an unknown query parameter included (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    sendMessage: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Who writes it
                     * @enum {string}
                     */
                    sub_type: "contact" | "agent" | "bot";
                    /** @description The writing agent: required for sub_type agent, not allowed otherwise */
                    agent_id?: string | null;
                    /**
                     * @description `note`: internal, neither asks nor answers
                     * @default message
                     * @enum {string}
                     */
                    type?: "message" | "note";
                    /** @description Plain text; text, html or an attachment is required */
                    text?: string | null;
                    /** @description HTML (at most 65536 characters), sanitised: only a and br survive; links only http, https, mailto */
                    html?: string | null;
                    /** @description At most 5 attachments */
                    attachments?: components["schemas"]["attachment"][];
                    /**
                     * Format: date-time
                     * @description For importing history: not in the future, not before the conversation's latest message nor its created_at
                     */
                    created_at?: string;
                };
            };
        };
        responses: {
            /** @description The message */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["message"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    listPaths: {
        parameters: {
            query?: {
                /** @description Items per page */
                size?: number;
                /** @description The `after` of the previous page */
                after?: string;
            };
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The paths collection */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["paths_collection"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            414: components["responses"]["uri_too_long"];
            /** @description Invalid request, an unknown query parameter included (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    addPath: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description http(s) URL of the page */
                    url: string;
                    /** @description Title of the page */
                    title?: string | null;
                };
            };
        };
        responses: {
            /** @description The path */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["path"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    rateConversation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description 1, 3 or 5
                     * @enum {integer}
                     */
                    value: 1 | 3 | 5;
                    /** @description The contact's comment */
                    text?: string | null;
                };
            };
        };
        responses: {
            /** @description The conversation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["conversation"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    searchConversations: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Any of these statuses */
                    status?: ("pending" | "open" | "served" | "closed")[];
                    /** @description Assigned to any of these agents; `null`: assigned to nobody */
                    assigned?: string[] | null;
                    /** @description Routed to this group; `null`: to none */
                    group_id?: string | null;
                    /** @description With this contact */
                    contact_id?: string;
                    /** @description Tagged with any of these tag ids */
                    tags?: string[];
                    /** @description Only conversations whose creation time (`created_at`) lies in [from, to) */
                    created_at?: {
                        /**
                         * Format: date-time
                         * @description Earliest creation time (`created_at`), included (RFC 3339)
                         */
                        from?: string;
                        /**
                         * Format: date-time
                         * @description Latest creation time (`created_at`), excluded (RFC 3339)
                         */
                        to?: string;
                    };
                    /** @description Only conversations whose last change (`updated_at`) lies in [from, to) */
                    updated_at?: {
                        /**
                         * Format: date-time
                         * @description Earliest last change (`updated_at`), included (RFC 3339)
                         */
                        from?: string;
                        /**
                         * Format: date-time
                         * @description Latest last change (`updated_at`), excluded (RFC 3339)
                         */
                        to?: string;
                    };
                    /** @description `true`: only conversations with unread contact messages (`unread` > 0); `false`: only without */
                    unread?: boolean;
                    /** @description Words to find in message text and the contact's name and e-mail (at most 256 characters), case and diacritics ignored, whole words; web-search syntax: `"a phrase"`, `or`, `-word` to exclude. Operators of tsquery (`&`, `|`, `!`, `:*`) are just punctuation */
                    query?: string;
                    /**
                     * @description Newest first by `updated_at` (the default) or `created_at`; `relevance` (needs `query`): best match first
                     * @enum {string}
                     */
                    sort?: "updated_at" | "created_at" | "relevance";
                    /**
                     * @description Items per page (default 20)
                     * @default 20
                     */
                    size?: number;
                    /** @description The `after` of the previous page, sent with the same filters, query and sort */
                    after?: string;
                };
            };
        };
        responses: {
            /** @description The conversation search page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["conversation_search_page"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Dependency unavailable (`service_unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
        };
    };
    createUpload: {
        parameters: {
            query?: {
                /** @description Name of the file; required for a raw body, overrides the multipart part file name */
                file_name?: string;
            };
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The file, at most 20 MiB
                     */
                    file: string;
                };
                "application/json": unknown;
                "*/*": string;
            };
        };
        responses: {
            /** @description The upload */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["upload"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request, an unknown query parameter included (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    downloadUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stored bytes with nosniff and a sandboxing CSP; png, jpeg, gif and webp inline, every other file as an attachment; a type a browser could render or run (HTML, SVG, XML, scripts) is served as application/octet-stream */
            200: {
                headers: {
                    /** @description `inline` (png, jpeg, gif, webp) or `attachment`, with the file name */
                    "content-disposition"?: string;
                    /** @description Always nosniff */
                    "x-content-type-options"?: "nosniff";
                    /** @description `default-src 'none'; sandbox`: the file can run nothing */
                    "content-security-policy"?: string;
                    /** @description `private, no-store` */
                    "cache-control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                    "*/*": string;
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            414: components["responses"]["uri_too_long"];
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    getStatistics: {
        parameters: {
            query?: {
                /** @description IANA time zone name (`Europe/Prague`); interprets local range values and places date buckets */
                timezone?: string;
            };
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description Caller-named entries; the response has the same keys */
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: components["schemas"]["statistics_request_entry"];
                };
            };
        };
        responses: {
            /** @description The statistics response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["statistics_response"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request, an unknown query parameter included (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Dependency unavailable (`service_unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
        };
    };
    streamEvents: {
        parameters: {
            query?: {
                /** @description Resume after this event id (the Last-Event-ID header wins when both are sent); 0 replays the whole outbox */
                last_event_id?: number;
                /**
                 * @description Comma-separated event types to receive (default: all): conversation.opened, conversation.updated, conversation.closed, conversation.rated, conversation.agent_assigned, conversation.agent_unassigned, conversation.contact_replied, conversation.agent_replied, conversation.bot_replied, conversation.agent_typing, conversation.contact_typing, contact.created, contact.deleted, agent.updated
                 * @example conversation.opened,conversation.closed
                 */
                types?: string;
            };
            header?: {
                /** @description Resume after this event id (an EventSource sends the last id it saw when it reconnects); wins over `last_event_id` */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-Sent Events: per event an `id:` line (the event id), an `event:` line (its type) and a `data:` line (JSON `{id, event, timestamp, account_id, data}`); `: keep-alive` comments every 15 s. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Invalid request, an unknown query parameter included (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook list */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["webhook_list"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            422: components["responses"]["invalid_arguments"];
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description http:// or https:// URL receiving POSTs
                     */
                    url: string;
                    /** @description Event types to send; null or absent: every type */
                    events?: ("conversation.opened" | "conversation.updated" | "conversation.closed" | "conversation.rated" | "conversation.agent_assigned" | "conversation.agent_unassigned" | "conversation.contact_replied" | "conversation.agent_replied" | "conversation.bot_replied" | "conversation.agent_typing" | "conversation.contact_typing" | "contact.created" | "contact.deleted" | "agent.updated")[] | null;
                    /** @description Signing secret; generated when absent (`whsec_` + base64 of 32 random bytes, shown once). Give one of that form (24 to 64 bytes) for the Standard Webhooks libraries to take as it is; any other is their "raw" key */
                    secret?: string;
                };
            };
        };
        responses: {
            /** @description The created webhook */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["created_webhook"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        /** @description No body is needed; an empty JSON object is accepted, and any property in it is refused (422). */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["empty_body"];
            };
        };
        responses: {
            /** @description The ok response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ok_response"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys) */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Signing secret; generated when absent (`whsec_` + base64 of 32 random bytes, shown once). Give one of that form (24 to 64 bytes) for the Standard Webhooks libraries to take as it is; any other is their "raw" key */
                    secret?: string;
                    /**
                     * @description How long the replaced secret keeps signing deliveries beside the new one (0: not at all; at most 7 days). X-Chat-Service-Hmac is signed with the new secret at once
                     * @default 86400
                     */
                    overlap_seconds?: number;
                };
            };
        };
        responses: {
            /** @description The rotated webhook secret */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["rotated_webhook_secret"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook delivery attempt list */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["webhook_delivery_attempt_list"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            414: components["responses"]["uri_too_long"];
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    startVisitorSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The account's public widget key (`data-key` of the script tag) */
                    widget_key: string;
                    /** @description The visitor token from an earlier session: resumes it when still valid */
                    token?: string;
                    identity?: components["schemas"]["signed_identity"];
                };
            };
        };
        responses: {
            /** @description The visitor session */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["visitor_session"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    listVisitorConversations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The visitor conversation list */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["visitor_conversation_list"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            422: components["responses"]["invalid_arguments"];
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    startVisitorConversation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Same as `client_id` (which wins when both are sent): a repeated request answers what the first one stored */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Plain text, 1 to 5000 characters (longer: 422 code `maxLength`) */
                    text: string;
                    /** @description An id the widget makes up for this start (a UUID): a repeated start with the same id answers the first conversation (a double click starts one). The Idempotency-Key header does the same. */
                    client_id?: string;
                    /** @description variables: at most 50 keys of at most 64 characters; values strings (at most 1024 characters), numbers or booleans */
                    variables?: {
                        [key: string]: string | number | boolean;
                    };
                };
            };
        };
        responses: {
            /** @description A conversation as its visitor sees it: no agents' internal fields */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["visitor_conversation"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    listVisitorMessages: {
        parameters: {
            query?: {
                /** @description Items per page */
                size?: number;
                /** @description The `after` of the previous page */
                after?: string;
            };
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The visitor messages page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["visitor_messages_page"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            414: components["responses"]["uri_too_long"];
            /** @description Invalid request, an unknown query parameter included (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    sendVisitorMessage: {
        parameters: {
            query?: never;
            header?: {
                /** @description Same as `client_id` (which wins when both are sent): a repeated request answers what the first one stored */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Plain text, 1 to 5000 characters (longer: 422 code `maxLength`) */
                    text?: string;
                    /** @description Files to attach, at most 5; text, attachments or both are required */
                    attachments?: components["schemas"]["visitor_attachment"][];
                    /** @description An id the widget makes up for this message (a UUID), sent again on a retry: a repeated message with the same id in this conversation answers the first one, stored once. The Idempotency-Key header does the same. */
                    client_id?: string;
                };
            };
        };
        responses: {
            /** @description A message as the visitor sees it: notes and system records are never shown */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["visitor_message"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    createVisitorUpload: {
        parameters: {
            query?: {
                /** @description Name of the file; required for a raw body, overrides the multipart part file name */
                file_name?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The file, at most 20 MiB
                     */
                    file: string;
                };
                "application/json": unknown;
                "*/*": string;
            };
        };
        responses: {
            /** @description The upload */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["upload"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request, an unknown query parameter included (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    downloadVisitorUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stored bytes with nosniff and a sandboxing CSP; png, jpeg, gif and webp inline, every other file as an attachment; a type a browser could render or run (HTML, SVG, XML, scripts) is served as application/octet-stream */
            200: {
                headers: {
                    /** @description `inline` (png, jpeg, gif, webp) or `attachment`, with the file name */
                    "content-disposition"?: string;
                    /** @description Always nosniff */
                    "x-content-type-options"?: "nosniff";
                    /** @description `default-src 'none'; sandbox`: the file can run nothing */
                    "content-security-policy"?: string;
                    /** @description `private, no-store` */
                    "cache-control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                    "*/*": string;
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            414: components["responses"]["uri_too_long"];
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    rateVisitorConversation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description 1, 3 or 5
                     * @enum {integer}
                     */
                    value: 1 | 3 | 5;
                    /** @description The contact's comment */
                    text?: string | null;
                };
            };
        };
        responses: {
            /** @description A conversation as its visitor sees it: no agents' internal fields */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["visitor_conversation"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    signalVisitorTyping: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the resource, as returned when it was created */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description true while the visitor types (send again every few seconds); false when they stop or send */
                    is_typing: boolean;
                };
            };
        };
        responses: {
            /** @description The ok response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ok_response"];
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The resource does not exist in this account (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            414: components["responses"]["uri_too_long"];
            /** @description Unsupported content type (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Invalid request (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    streamVisitorEvents: {
        parameters: {
            query?: {
                /** @description Resume after this event id (the Last-Event-ID header wins when both are sent) */
                last_event_id?: number;
            };
            header?: {
                /** @description Resume after this event id (an EventSource sends the last id it saw when it reconnects); wins over `last_event_id` */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-Sent Events of the visitor's conversations: per event `id:` (the event id), `event:` (its type) and `data:` (JSON `{id, event, timestamp, data}`; docs/widget.md lists what `data` holds for each type); `: keep-alive` comments every 15 s. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Missing, unknown or revoked token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description The token lacks the required scope (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Invalid request, an unknown query parameter included (`invalid_arguments` or a rule-specific code) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error_payload"];
                };
            };
            503: components["responses"]["service_unavailable"];
        };
    };
    exportLegacyTotals: {
        parameters: {
            query?: {
                /**
                 * @description First day of the range (YYYY-MM-DD, account time zone, inclusive); default: 29 days before `to`
                 * @example 2024-03-05
                 */
                from?: string;
                /**
                 * @description Last day of the range (YYYY-MM-DD, account time zone, inclusive); default: today
                 * @example 2024-03-05
                 */
                to?: string;
                /** @description Only conversations of this group (group id) */
                group?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The legacy totals response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_totals_response"];
                };
            };
            /** @description A bad parameter (`invalid_parameters`, the message names it) or malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description Missing or unknown apiKey, or without one a missing, unknown or revoked bearer token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description The bearer token (sent without an apiKey) lacks statistics:read (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description The queries did not finish within HEAVY_QUERY_TIMEOUT_MS (`service_unavailable`); see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
        };
    };
    exportLegacyTotalsFromBody: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @description The account's legacy statistics key; required unless a statistics:read bearer token is sent */
                    apiKey?: string | null;
                    /**
                     * @description First day of the range (YYYY-MM-DD, account time zone, inclusive); default: 29 days before `to`
                     * @example 2024-03-05
                     */
                    from?: string | null;
                    /**
                     * @description Last day of the range (YYYY-MM-DD, account time zone, inclusive); default: today
                     * @example 2024-03-05
                     */
                    to?: string | null;
                    /** @description Only conversations of this group (group id) */
                    group?: string | null;
                };
                "application/json": {
                    /** @description The account's legacy statistics key; required unless a statistics:read bearer token is sent */
                    apiKey?: string | null;
                    /**
                     * @description First day of the range (YYYY-MM-DD, account time zone, inclusive); default: 29 days before `to`
                     * @example 2024-03-05
                     */
                    from?: string | null;
                    /**
                     * @description Last day of the range (YYYY-MM-DD, account time zone, inclusive); default: today
                     * @example 2024-03-05
                     */
                    to?: string | null;
                    /** @description Only conversations of this group (group id) */
                    group?: string | null;
                };
            };
        };
        responses: {
            /** @description The legacy totals response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_totals_response"];
                };
            };
            /** @description A bad parameter (`invalid_parameters`, the message names it) or malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description Missing or unknown apiKey, or without one a missing, unknown or revoked bearer token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description The bearer token (sent without an apiKey) lacks statistics:read (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description Body neither a form nor JSON (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description The queries did not finish within HEAVY_QUERY_TIMEOUT_MS (`service_unavailable`); see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
        };
    };
    exportLegacyOverview: {
        parameters: {
            query?: {
                /**
                 * @description First day of the range (YYYY-MM-DD, account time zone, inclusive); default: 29 days before `to`
                 * @example 2024-03-05
                 */
                from?: string;
                /**
                 * @description Last day of the range (YYYY-MM-DD, account time zone, inclusive); default: today
                 * @example 2024-03-05
                 */
                to?: string;
                /** @description Only conversations of this group (group id) */
                group?: string;
                /** @description Unit of the records: day (default), week (ISO, Monday first) or month */
                interval?: "day" | "week" | "month" | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The legacy overview response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_overview_response"];
                };
            };
            /** @description A bad parameter (`invalid_parameters`, the message names it) or malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description Missing or unknown apiKey, or without one a missing, unknown or revoked bearer token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description The bearer token (sent without an apiKey) lacks statistics:read (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description The queries did not finish within HEAVY_QUERY_TIMEOUT_MS (`service_unavailable`); see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
        };
    };
    exportLegacyOverviewFromBody: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @description The account's legacy statistics key; required unless a statistics:read bearer token is sent */
                    apiKey?: string | null;
                    /**
                     * @description First day of the range (YYYY-MM-DD, account time zone, inclusive); default: 29 days before `to`
                     * @example 2024-03-05
                     */
                    from?: string | null;
                    /**
                     * @description Last day of the range (YYYY-MM-DD, account time zone, inclusive); default: today
                     * @example 2024-03-05
                     */
                    to?: string | null;
                    /** @description Only conversations of this group (group id) */
                    group?: string | null;
                    /**
                     * @description Unit of the records: day (default), week (ISO, Monday first) or month
                     * @enum {string|null}
                     */
                    interval?: "day" | "week" | "month" | "" | null;
                };
                "application/json": {
                    /** @description The account's legacy statistics key; required unless a statistics:read bearer token is sent */
                    apiKey?: string | null;
                    /**
                     * @description First day of the range (YYYY-MM-DD, account time zone, inclusive); default: 29 days before `to`
                     * @example 2024-03-05
                     */
                    from?: string | null;
                    /**
                     * @description Last day of the range (YYYY-MM-DD, account time zone, inclusive); default: today
                     * @example 2024-03-05
                     */
                    to?: string | null;
                    /** @description Only conversations of this group (group id) */
                    group?: string | null;
                    /**
                     * @description Unit of the records: day (default), week (ISO, Monday first) or month
                     * @enum {string|null}
                     */
                    interval?: "day" | "week" | "month" | "" | null;
                };
            };
        };
        responses: {
            /** @description The legacy overview response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_overview_response"];
                };
            };
            /** @description A bad parameter (`invalid_parameters`, the message names it) or malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description Missing or unknown apiKey, or without one a missing, unknown or revoked bearer token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description The bearer token (sent without an apiKey) lacks statistics:read (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description Body neither a form nor JSON (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description The queries did not finish within HEAVY_QUERY_TIMEOUT_MS (`service_unavailable`); see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
        };
    };
    exportLegacyAgents: {
        parameters: {
            query?: {
                /**
                 * @description First day of the range (YYYY-MM-DD, account time zone, inclusive); default: 29 days before `to`
                 * @example 2024-03-05
                 */
                from?: string;
                /**
                 * @description Last day of the range (YYYY-MM-DD, account time zone, inclusive); default: today
                 * @example 2024-03-05
                 */
                to?: string;
                /** @description Only conversations of this group (group id) */
                group?: string;
                /** @description Unit of the records: day (default), week (ISO, Monday first) or month */
                interval?: "day" | "week" | "month" | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The legacy agents response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_agents_response"];
                };
            };
            /** @description A bad parameter (`invalid_parameters`, the message names it) or malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description Missing or unknown apiKey, or without one a missing, unknown or revoked bearer token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description The bearer token (sent without an apiKey) lacks statistics:read (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description The queries did not finish within HEAVY_QUERY_TIMEOUT_MS (`service_unavailable`); see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
        };
    };
    exportLegacyAgentsFromBody: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @description The account's legacy statistics key; required unless a statistics:read bearer token is sent */
                    apiKey?: string | null;
                    /**
                     * @description First day of the range (YYYY-MM-DD, account time zone, inclusive); default: 29 days before `to`
                     * @example 2024-03-05
                     */
                    from?: string | null;
                    /**
                     * @description Last day of the range (YYYY-MM-DD, account time zone, inclusive); default: today
                     * @example 2024-03-05
                     */
                    to?: string | null;
                    /** @description Only conversations of this group (group id) */
                    group?: string | null;
                    /**
                     * @description Unit of the records: day (default), week (ISO, Monday first) or month
                     * @enum {string|null}
                     */
                    interval?: "day" | "week" | "month" | "" | null;
                };
                "application/json": {
                    /** @description The account's legacy statistics key; required unless a statistics:read bearer token is sent */
                    apiKey?: string | null;
                    /**
                     * @description First day of the range (YYYY-MM-DD, account time zone, inclusive); default: 29 days before `to`
                     * @example 2024-03-05
                     */
                    from?: string | null;
                    /**
                     * @description Last day of the range (YYYY-MM-DD, account time zone, inclusive); default: today
                     * @example 2024-03-05
                     */
                    to?: string | null;
                    /** @description Only conversations of this group (group id) */
                    group?: string | null;
                    /**
                     * @description Unit of the records: day (default), week (ISO, Monday first) or month
                     * @enum {string|null}
                     */
                    interval?: "day" | "week" | "month" | "" | null;
                };
            };
        };
        responses: {
            /** @description The legacy agents response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_agents_response"];
                };
            };
            /** @description A bad parameter (`invalid_parameters`, the message names it) or malformed JSON (`bad_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description Missing or unknown apiKey, or without one a missing, unknown or revoked bearer token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description The bearer token (sent without an apiKey) lacks statistics:read (`forbidden`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            405: components["responses"]["method_not_allowed"];
            408: components["responses"]["request_timeout"];
            /** @description Body over the size limit (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description Body neither a form nor JSON (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            431: components["responses"]["headers_too_large"];
            /** @description Unexpected failure (`internal_error`), with a request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
            /** @description The queries did not finish within HEAVY_QUERY_TIMEOUT_MS (`service_unavailable`); see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["legacy_error"];
                };
            };
        };
    };
}
