#include <git2.h>
#include <errno.h>
#include <fcntl.h>
#if defined(__linux__)
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

// git_libgit2_opts is variadic, which Swift cannot call: one small wrapper per option used.
static inline int cgit2_set_owner_validation(int enabled) {
    return git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, enabled);
}

// Trees of more than 4 KB (a folder of a hundred packages) are not cached by default, so every path looked up
// through them inflates them again: keep trees of up to 1 MB.
static inline int cgit2_cache_large_trees(void) {
    return git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, (size_t)1 << 20);
}

// Opens the folder `path` below the folder `root` refers to, and fails (ELOOP, ENOTDIR, ENOENT) when any part of the way
// is a symbolic link or no folder: git reads a tracked file only through real folders. ENOSYS where there is no openat2
// (Linux before 5.6, or another system).
static inline int cgit2_open_folder_without_links(int root, const char *path) {
#if defined(__linux__) && defined(SYS_openat2)
    struct open_how how = {0};
    how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
    how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH;
    return (int)syscall(SYS_openat2, root, path, &how, sizeof how);
#else
    (void)root;
    (void)path;
    errno = ENOSYS;
    return -1;
#endif
}
