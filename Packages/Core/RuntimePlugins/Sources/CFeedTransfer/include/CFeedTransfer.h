#ifndef CFEEDTRANSFER_H
#define CFEEDTRANSFER_H

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
    /// Refuses a response whose announced size is larger (0: no limit).
    long long max_size;
    /// Receives the body as it arrives with the response's status; returning less than `count` stops
    /// the transfer.
    size_t (*receive)(void *context, long status, const char *bytes, size_t count);
    /// Passed to `receive`.
    void *context;
} FeedTransferRequest;

/// How a transfer ended.
typedef enum __attribute__((enum_extensibility(closed))) FeedTransferOutcome : int {
    /// The whole body arrived.
    FeedTransferOutcomeCompleted,
    /// The server answered with an error status (`status`).
    FeedTransferOutcomeHTTPError,
    /// The connection or the transfer went idle for too long.
    FeedTransferOutcomeTimedOut,
    /// The server announced a body larger than `max_size`.
    FeedTransferOutcomeTooLarge,
    /// `receive` stopped the transfer.
    FeedTransferOutcomeStopped,
    /// Anything else: the connection, TLS, the name lookup, a body that ended early (`message`).
    FeedTransferOutcomeFailed,
    /// libcurl cannot be loaded or started (`message`).
    FeedTransferOutcomeUnavailable,
} FeedTransferOutcome;

/// What a transfer gave.
typedef struct FeedTransferResult {
    /// How it ended.
    FeedTransferOutcome outcome;
    /// The HTTP status of the last response (0: none).
    long status;
    /// What went wrong, in libcurl's words, when it did not complete.
    char message[256];
} FeedTransferResult;

/// Loads libcurl now, so that a transfer started later does not wait for it (failures show at the transfer).
void feed_transfer_preload(void);

/// Runs `request` and says how it ended in `result`.
void feed_transfer_get(const FeedTransferRequest *request, FeedTransferResult *result);

#endif
