#include <git2.h>

// git_libgit2_opts is variadic, which Swift cannot call: one small wrapper per option used.
static inline int cgit2_set_owner_validation(int enabled) {
    return git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, enabled);
}

// Trees of more than 4 KB (a folder of a hundred packages) are not cached by default, so every path looked up
// through them inflates them again: keep trees of up to 1 MB.
static inline int cgit2_cache_large_trees(void) {
    return git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, (size_t)1 << 20);
}
