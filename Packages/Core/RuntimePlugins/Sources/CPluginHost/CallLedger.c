#include "CPluginHost.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

PluginCallLedger *plugin_call_ledger_map(const char *path) {
    int descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (descriptor < 0) return NULL;
    if (ftruncate(descriptor, sizeof(PluginCallLedger)) != 0) {
        close(descriptor);
        return NULL;
    }
    void *memory = mmap(NULL, sizeof(PluginCallLedger), PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0);
    close(descriptor);
    return memory == MAP_FAILED ? NULL : memory;
}

void plugin_call_ledger_enter(PluginCallLedger *ledger) {
    __atomic_add_fetch(&ledger->calls_in_progress, 1, __ATOMIC_SEQ_CST);
}

void plugin_call_ledger_leave(PluginCallLedger *ledger) {
    __atomic_sub_fetch(&ledger->calls_in_progress, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&ledger->loaded, __ATOMIC_SEQ_CST)) __atomic_store_n(&ledger->ran_after_load, 1, __ATOMIC_SEQ_CST);
}

void plugin_call_ledger_loaded(PluginCallLedger *ledger) {
    __atomic_store_n(&ledger->loaded, 1, __ATOMIC_SEQ_CST);
}
