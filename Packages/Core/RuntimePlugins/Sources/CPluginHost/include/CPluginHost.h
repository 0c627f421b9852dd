#ifndef CPLUGINHOST_H
#define CPLUGINHOST_H

#include <stddef.h>

/// One HTTP(S) GET through libcurl, which is loaded (dlopen) at the first transfer rather than linked:
/// an App start that downloads nothing never pays for libcurl and its TLS and name libraries.
typedef struct FeedTransferRequest {
    /// The URL (http:// or https://; redirects are followed to those schemes only).
    const char *url;
    /// Bytes already held: asks for the rest with `Range: bytes=offset-` when above zero.
    long long offset;
    /// Milliseconds to connect, and without a byte, before the transfer is given up.
    long idle_timeout_ms;
    /// Milliseconds for the whole transfer.
    long total_timeout_ms;
    /// Bytes a second the body must average over each `idle_timeout_ms` (0: no minimum); slower is given up.
    long long minimum_rate;
    /// Refuses a response whose announced size is larger (0: no limit).
    long long max_size;
    /// Receives the body as it arrives with the response's status; returning less than `count` stops
    /// the transfer.
    size_t (*receive)(void *context, long status, const char *bytes, size_t count);
    /// Passed to `receive`.
    void *context;
    /// Sent as `If-None-Match` when not NULL: the server answers 304 if the file is still that version.
    const char *if_none_match;
    /// Sent as `If-Modified-Since` when not NULL.
    const char *if_modified_since;
} FeedTransferRequest;

/// How a transfer ended.
typedef enum __attribute__((enum_extensibility(closed))) FeedTransferOutcome : int {
    /// The whole body arrived.
    FeedTransferOutcomeCompleted,
    /// The server answered with an error status (`status`).
    FeedTransferOutcomeHTTPError,
    /// The connection or the transfer went idle for too long.
    FeedTransferOutcomeTimedOut,
    /// The body came slower than `minimum_rate` over a whole window (`message` says how slow).
    FeedTransferOutcomeTooSlow,
    /// The server announced a body larger than `max_size`.
    FeedTransferOutcomeTooLarge,
    /// `receive` stopped the transfer.
    FeedTransferOutcomeStopped,
    /// Anything else: the connection, TLS, the name lookup, a body that ended early (`message`).
    FeedTransferOutcomeFailed,
    /// libcurl cannot be loaded or started (`message`).
    FeedTransferOutcomeUnavailable,
    /// The server's redirects go round in circles, or lead off http(s) (`message`): no retry can succeed.
    FeedTransferOutcomeBadRedirect,
} FeedTransferOutcome;

/// What a transfer gave.
typedef struct FeedTransferResult {
    /// How it ended.
    FeedTransferOutcome outcome;
    /// The HTTP status of the last response (0: none).
    long status;
    /// What went wrong, in libcurl's words, when it did not complete.
    char message[256];
    /// The response's `ETag` header, empty when it had none.
    char etag[256];
    /// The response's `Last-Modified` header, empty when it had none.
    char last_modified[128];
} FeedTransferResult;

/// Loads libcurl now, so that a transfer started later does not wait for it (failures show at the transfer).
void feed_transfer_preload(void);

/// Runs `request` and says how it ended in `result`.
void feed_transfer_get(const FeedTransferRequest *request, FeedTransferResult *result);

/// Copies the GNU build ID of the first library this process has loaded whose path ends in `suffix`
/// (like "/libswiftCore.so") into `id`, read from the library's notes in memory: no file is opened.
/// Returns the ID's length in bytes, 0 when that library has no build ID, -1 when no such library is
/// loaded, or -2 when the ID is longer than `capacity`.
int plugin_host_loaded_build_id(const char *suffix, unsigned char *id, int capacity);

/// A run's ledger of calls into one plugin: a small file mapped shared, so what it says outlives a crash
/// of the process (the kernel keeps the written page). Slots: calls in progress, whether a call after the
/// plugin's load returned, whether its load finished.
typedef struct PluginCallLedger {
    long long calls_in_progress;
    long long ran_after_load;
    long long loaded;
} PluginCallLedger;

/// Creates (or opens) the ledger file at `path` and maps it; NULL with errno set when it cannot.
PluginCallLedger *plugin_call_ledger_map(const char *path);

/// Marks the start of a call into the plugin.
void plugin_call_ledger_enter(PluginCallLedger *ledger);

/// Marks the end of a call into the plugin; after its load, it also records that its code ran.
void plugin_call_ledger_leave(PluginCallLedger *ledger);

/// Marks the plugin's load finished: calls from now on are its own code running.
void plugin_call_ledger_loaded(PluginCallLedger *ledger);

#endif
