#define _GNU_SOURCE
#include "CPluginHost.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <stddef.h>
#include <time.h>

// libcurl's ABI (soname 4) is stable; these are the few parts of curl.h this transfer uses, so building
// the App needs no libcurl headers.
typedef void CURL;
typedef int CURLcode;
typedef long long curl_off_t;
typedef size_t (*curl_write_callback)(char *, size_t, size_t, void *);
struct curl_slist;
typedef int (*curl_xferinfo_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

enum {
    CURLOPT_WRITEDATA = 10001,
    CURLOPT_URL = 10002,
    CURLOPT_RANGE = 10007,
    CURLOPT_ERRORBUFFER = 10010,
    CURLOPT_USERAGENT = 10018,
    CURLOPT_HTTPHEADER = 10023,
    CURLOPT_HEADERDATA = 10029,
    CURLOPT_HEADERFUNCTION = 20079,
    CURLOPT_WRITEFUNCTION = 20011,
    CURLOPT_NOPROGRESS = 43,
    CURLOPT_XFERINFODATA = 10057,
    CURLOPT_XFERINFOFUNCTION = 20219,
    CURLOPT_FAILONERROR = 45,
    CURLOPT_FOLLOWLOCATION = 52,
    CURLOPT_MAXREDIRS = 68,
    CURLOPT_NOSIGNAL = 99,
    CURLOPT_TIMEOUT_MS = 155,
    CURLOPT_CONNECTTIMEOUT_MS = 156,
    CURLOPT_PROTOCOLS = 181,
    CURLOPT_REDIR_PROTOCOLS = 182,
    CURLOPT_MAXFILESIZE_LARGE = 30117,
    CURLINFO_RESPONSE_CODE = 0x200002,
    CURLPROTO_HTTP = 1,
    CURLPROTO_HTTPS = 2,
    CURLE_UNSUPPORTED_PROTOCOL = 1,
    CURLE_TOO_MANY_REDIRECTS = 47,
    CURLE_WRITE_ERROR = 23,
    CURLE_HTTP_RETURNED_ERROR = 22,
    CURLE_OPERATION_TIMEDOUT = 28,
    CURLE_FILESIZE_EXCEEDED = 63,
    CURL_ERROR_SIZE = 256,
};

typedef struct Curl {
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, int, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, int, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} Curl;

typedef struct Receiver {
    const Curl *curl;
    CURL *handle;
    const FeedTransferRequest *request;
    curl_off_t received;
    double last_byte_ms;
    int idle;
    double window_start_ms;
    curl_off_t window_received;
    curl_off_t slow_bytes;
} Receiver;

static double now_ms(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec * 1000 + (double)time.tv_nsec / 1e6;
}

// The library stays loaded once opened (dlopen counts references; TLS libraries do not unload cleanly),
// so each transfer opens it again cheaply and no state is kept between transfers.
static int load(Curl *curl, char *message, size_t capacity) {
    static const char *const names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so", "libcurl.4.dylib"};
    // RTLD_DEEPBIND resolves libcurl's symbols in its own dependencies before the App's many libraries:
    // it halves the load. Sanitizer runtimes refuse it, so it is left out under one.
    int flags = RTLD_NOW | RTLD_LOCAL;
#ifdef RTLD_DEEPBIND
    if (dlsym(RTLD_DEFAULT, "__asan_init") == NULL && dlsym(RTLD_DEFAULT, "__tsan_init") == NULL && dlsym(RTLD_DEFAULT, "__msan_init") == NULL) {
        flags |= RTLD_DEEPBIND;
    }
#endif
    void *library = NULL;
    for (size_t index = 0; index < sizeof names / sizeof names[0] && library == NULL; index++) {
        library = dlopen(names[index], flags);
    }
    if (library == NULL) {
        snprintf(message, capacity, "libcurl cannot be loaded (%s); install it (Debian: apt-get install libcurl4)", dlerror());
        return -1;
    }
    void **slots[] = {
        (void **)&curl->easy_init, (void **)&curl->easy_setopt, (void **)&curl->easy_perform,
        (void **)&curl->easy_getinfo, (void **)&curl->easy_cleanup, (void **)&curl->easy_strerror,
        (void **)&curl->slist_append, (void **)&curl->slist_free_all,
    };
    static const char *const symbols[] = {
        "curl_easy_init", "curl_easy_setopt", "curl_easy_perform", "curl_easy_getinfo", "curl_easy_cleanup", "curl_easy_strerror",
        "curl_slist_append", "curl_slist_free_all",
    };
    for (size_t index = 0; index < sizeof symbols / sizeof symbols[0]; index++) {
        *slots[index] = dlsym(library, symbols[index]);
        if (*slots[index] == NULL) {
            snprintf(message, capacity, "the libcurl found has no %s", symbols[index]);
            return -1;
        }
    }
    return 0;
}

void feed_transfer_preload(void) {
    Curl curl;
    char message[256];
    (void)load(&curl, message, sizeof message);
}

static size_t receive(char *bytes, size_t size, size_t count, void *context) {
    Receiver *receiver = context;
    long status = 0;
    receiver->curl->easy_getinfo(receiver->handle, CURLINFO_RESPONSE_CODE, &status);
    return receiver->request->receive(receiver->request->context, status, bytes, size * count);
}

// Keeps the validators of the last response (a redirect's headers come first; the final ones win).
static size_t header(char *bytes, size_t size, size_t count, void *context) {
    FeedTransferResult *result = context;
    size_t length = size * count;
    static const struct { const char *name; size_t offset; size_t capacity; } wanted[] = {
        {"etag:", offsetof(FeedTransferResult, etag), sizeof ((FeedTransferResult *)0)->etag},
        {"last-modified:", offsetof(FeedTransferResult, last_modified), sizeof ((FeedTransferResult *)0)->last_modified},
    };
    if (length >= 5 && strncmp(bytes, "HTTP/", 5) == 0) {
        result->etag[0] = '\0';
        result->last_modified[0] = '\0';
    }
    for (size_t index = 0; index < sizeof wanted / sizeof wanted[0]; index++) {
        size_t name = strlen(wanted[index].name);
        if (length <= name || strncasecmp(bytes, wanted[index].name, name) != 0) continue;
        const char *value = bytes + name;
        size_t rest = length - name;
        while (rest > 0 && (*value == ' ' || *value == '\t')) value++, rest--;
        while (rest > 0 && (value[rest - 1] == '\r' || value[rest - 1] == '\n' || value[rest - 1] == ' ')) rest--;
        char *target = (char *)result + wanted[index].offset;
        if (rest < wanted[index].capacity) {
            memcpy(target, value, rest);
            target[rest] = '\0';
        }
    }
    return length;
}

static FeedTransferOutcome outcome(CURLcode code) {
    switch (code) {
    case 0: return FeedTransferOutcomeCompleted;
    case CURLE_HTTP_RETURNED_ERROR: return FeedTransferOutcomeHTTPError;
    case CURLE_OPERATION_TIMEDOUT: return FeedTransferOutcomeTimedOut;
    case CURLE_FILESIZE_EXCEEDED: return FeedTransferOutcomeTooLarge;
    case CURLE_WRITE_ERROR: return FeedTransferOutcomeStopped;
    // Only a redirect can lead off http(s) (the URL asked for is checked first): neither ends otherwise on a retry.
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_TOO_MANY_REDIRECTS: return FeedTransferOutcomeBadRedirect;
    default: return FeedTransferOutcomeFailed;
    }
}

// Called about once a second even when nothing arrives: the idle timeout counts from the last byte, and
// each window of that length must bring at least `minimum_rate` bytes a second (a trickle is given up).
static int watch(void *context, curl_off_t total, curl_off_t received, curl_off_t upload_total, curl_off_t uploaded) {
    (void)total, (void)upload_total, (void)uploaded;
    Receiver *receiver = context;
    const FeedTransferRequest *request = receiver->request;
    double now = now_ms();
    if (received != receiver->received) {
        receiver->received = received;
        receiver->last_byte_ms = now;
    }
    receiver->idle = now - receiver->last_byte_ms > (double)request->idle_timeout_ms;
    if (now - receiver->window_start_ms >= (double)request->idle_timeout_ms) {
        curl_off_t brought = received - receiver->window_received;
        if (request->minimum_rate > 0 && (double)brought < (double)request->minimum_rate * (double)request->idle_timeout_ms / 1000) {
            // A window that ends in silence is a stall (timed out); one that ends with bytes coming, a trickle.
            if (now - receiver->last_byte_ms > (double)request->idle_timeout_ms / 2) {
                receiver->idle = 1;
            } else {
                receiver->slow_bytes = brought;
            }
            return 1;
        }
        receiver->window_start_ms = now;
        receiver->window_received = received;
    }
    return receiver->idle;
}

void feed_transfer_get(const FeedTransferRequest *request, FeedTransferResult *result) {
    memset(result, 0, sizeof *result);
    result->outcome = FeedTransferOutcomeUnavailable;
    Curl curl;
    if (load(&curl, result->message, sizeof result->message) != 0) return;
    CURL *handle = curl.easy_init();
    if (handle == NULL) {
        snprintf(result->message, sizeof result->message, "libcurl cannot start a transfer");
        return;
    }
    Receiver receiver = {&curl, handle, request, 0, now_ms(), 0, now_ms(), 0, -1};
    char errors[CURL_ERROR_SIZE] = "";
    char range[32];
    curl.easy_setopt(handle, CURLOPT_URL, request->url);
    curl.easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    curl.easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 1L);
    curl.easy_setopt(handle, CURLOPT_MAXREDIRS, 5L);
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_FAILONERROR, 1L);
    curl.easy_setopt(handle, CURLOPT_USERAGENT, "App-plugins/1");
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, errors);
    curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, request->idle_timeout_ms);
    curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, (curl_xferinfo_callback)watch);
    curl.easy_setopt(handle, CURLOPT_XFERINFODATA, (void *)&receiver);
    curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, request->total_timeout_ms);
    if (request->max_size > 0) curl.easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE, (long long)request->max_size);
    if (request->offset > 0) {
        snprintf(range, sizeof range, "%lld-", request->offset);
        curl.easy_setopt(handle, CURLOPT_RANGE, range);
    }
    struct curl_slist *headers = NULL;
    char line[512];
    if (request->if_none_match != NULL) {
        snprintf(line, sizeof line, "If-None-Match: %s", request->if_none_match);
        headers = curl.slist_append(headers, line);
    }
    if (request->if_modified_since != NULL) {
        snprintf(line, sizeof line, "If-Modified-Since: %s", request->if_modified_since);
        headers = curl.slist_append(headers, line);
    }
    if (headers != NULL) curl.easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
    curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, (curl_write_callback)header);
    curl.easy_setopt(handle, CURLOPT_HEADERDATA, (void *)result);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, (curl_write_callback)receive);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, (void *)&receiver);
    CURLcode code = curl.easy_perform(handle);
    result->outcome = receiver.idle ? FeedTransferOutcomeTimedOut : receiver.slow_bytes >= 0 ? FeedTransferOutcomeTooSlow : outcome(code);
    curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &result->status);
    if (result->outcome == FeedTransferOutcomeTooSlow) {
        snprintf(result->message, sizeof result->message, "%lld bytes in %ld ms", (long long)receiver.slow_bytes, request->idle_timeout_ms);
    } else if (code != 0) {
        snprintf(result->message, sizeof result->message, "%s", errors[0] != '\0' ? errors : curl.easy_strerror(code));
    }
    curl.easy_cleanup(handle);
    if (headers != NULL) curl.slist_free_all(headers);
}
