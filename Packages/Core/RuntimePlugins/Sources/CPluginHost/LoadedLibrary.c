#define _GNU_SOURCE
#include "CPluginHost.h"

#include <elf.h>
#include <link.h>
#include <string.h>

typedef struct Search {
    const char *suffix;
    unsigned char *id;
    int capacity;
    int result;
} Search;

// The notes of a loaded object are mapped with it (PT_NOTE): the build ID is read where the loader put it.
static int visit(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    Search *search = context;
    size_t name_length = strlen(info->dlpi_name), suffix_length = strlen(search->suffix);
    if (name_length < suffix_length || strcmp(info->dlpi_name + name_length - suffix_length, search->suffix) != 0) return 0;
    search->result = 0;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_NOTE) continue;
        const unsigned char *at = (const unsigned char *)(info->dlpi_addr + header->p_vaddr);
        const unsigned char *end = at + header->p_memsz;
        while (at + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *note = (const ElfW(Nhdr) *)at;
            const unsigned char *name = at + sizeof *note;
            const unsigned char *description = name + ((note->n_namesz + 3) & ~3u);
            if (description + note->n_descsz > end) break;
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
                if ((int)note->n_descsz > search->capacity) {
                    search->result = -2;
                } else {
                    memcpy(search->id, description, note->n_descsz);
                    search->result = (int)note->n_descsz;
                }
                return 1;
            }
            at = description + ((note->n_descsz + 3) & ~3u);
        }
    }
    return 1;
}

int plugin_host_loaded_build_id(const char *suffix, unsigned char *id, int capacity) {
    Search search = {suffix, id, capacity, -1};
    dl_iterate_phdr(visit, &search);
    return search.result;
}
