#include <git2.h>

// git_libgit2_opts is variadic, which Swift cannot call: one small wrapper per option used.
static inline int cgit2_set_owner_validation(int enabled) {
    return git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, enabled);
}
