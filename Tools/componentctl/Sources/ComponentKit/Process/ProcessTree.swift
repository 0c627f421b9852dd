import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The processes a child started, whichever process group they put themselves in: SwiftPM runs a compiled manifest
/// in a group of its own, which a signal to the child's group does not reach. Such a process keeps the pipes and the
/// socket Foundation watches for the child's end, so componentctl would wait on it for ever once the child is gone.
enum ProcessTree {
    /// Every living descendant of `pid`, children before their own children.
    static func descendants(of pid: pid_t) -> [pid_t] {
        var children: [pid_t: [pid_t]] = [:]
        for (process, parent) in parents() { children[parent, default: []].append(process) }
        var found: [pid_t] = []
        var next = children[pid] ?? []
        while let process = next.popLast() {
            found.append(process)
            next += children[process] ?? []
        }
        return found
    }

    /// Sends `signal` to each of `processes` outside the process group `group`, whose members the caller signals at once.
    static func signal(_ signal: Int32, _ processes: [pid_t], outside group: pid_t) {
        for process in processes where getpgid(process) != group { kill(process, signal) }
    }

    /// The processes whose command line holds `text` (read from `/proc`; none where there is no `/proc`).
    static func processes(mentioning text: String) -> [pid_t] {
        let wanted = Array(text.utf8)
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard let pid = pid_t(entry), pid != getpid(), let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let bytes = Array(line)
            guard bytes.count >= wanted.count else { return nil }
            return (0...(bytes.count - wanted.count)).contains { bytes[$0..<$0 + wanted.count].elementsEqual(wanted) } ? pid : nil
        }
    }

    /// Waits, at most `seconds`, until none of `processes` runs (a zombie has ended).
    static func waitUntilEnded(_ processes: [pid_t], seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        func isRunning(_ pid: pid_t) -> Bool {
            guard kill(pid, 0) == 0 else { return false }
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return true }
            return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
        }
        while processes.contains(where: isRunning), Date() < deadline { usleep(10_000) }
    }

    /// Each process with its parent: from `/proc` where there is one, else from `ps`.
    private static func parents() -> [(pid_t, pid_t)] {
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") {
            return entries.compactMap { entry in
                guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8) else { return nil }
                // "pid (command) state ppid ...": the command may hold spaces and parentheses, so read after the last ')'.
                guard let close = stat.lastIndex(of: ")") else { return nil }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                return fields.count > 1 ? pid_t(fields[1]).map { (pid, $0) } : nil
            }
        }
        // Not through ``ProcessRunner``: this runs while a stop is forwarded, which would stop `ps` too.
        let ps = Process(), output = Pipe()
        ps.executableURL = URL(fileURLWithPath: "/bin/ps")
        ps.arguments = ["-A", "-o", "pid=,ppid="]
        ps.standardOutput = output
        guard (try? ps.run()) != nil else { return [] }
        let listing = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ps.waitUntilExit()
        return listing.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 2, let pid = pid_t(fields[0]), let parent = pid_t(fields[1]) else { return nil }
            return (pid, parent)
        }
    }
}
