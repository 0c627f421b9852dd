/// The component dependency graph from the manifests: paths, cycles and dependents.
public struct DependencyGraph: Sendable {
    /// The components, in components.yaml order.
    public let nodes: [String]
    /// Each component's direct dependencies, sorted.
    public let successors: [String: [String]]

    /// The graph of `analysis`.
    public init(analysis: WorkspaceAnalysis) {
        nodes = analysis.workspace.components.map(\.name)
        var successors: [String: [String]] = [:]
        for name in nodes {
            successors[name] = Array(Set(analysis.packages[name]?.edges.map(\.to) ?? [])).sorted()
        }
        self.successors = successors
    }

    /// A graph with explicit edges, for tests and generated workspaces.
    public init(nodes: [String], successors: [String: [String]]) {
        self.nodes = nodes
        self.successors = successors.mapValues { Array(Set($0)).sorted() }
    }

    /// The shortest chain of dependencies from `from` to `to` (both included), or nil.
    public func shortestPath(from: String, to: String) -> [String]? {
        guard from != to else { return [from] }
        var previous: [String: String] = [from: from]
        var queue = [from]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for next in successors[node] ?? [] where previous[next] == nil {
                previous[next] = node
                if next == to {
                    var path = [to]
                    var current = to
                    while current != from, let before = previous[current] {
                        path.append(before)
                        current = before
                    }
                    return path.reversed()
                }
                queue.append(next)
            }
        }
        return nil
    }

    /// Every cycle, one per strongly connected component, as a path that ends where it starts.
    public func cycles() -> [[String]] {
        var index = 0
        var indices: [String: Int] = [:]
        var lowLinks: [String: Int] = [:]
        var stack: [String] = []
        var onStack = Set<String>()
        var components: [[String]] = []

        // Iterative Tarjan: deep graphs must not overflow the call stack.
        for root in nodes where indices[root] == nil {
            var work: [(node: String, next: Int)] = [(root, 0)]
            indices[root] = index
            lowLinks[root] = index
            index += 1
            stack.append(root)
            onStack.insert(root)
            while let (node, next) = work.last {
                let children = successors[node] ?? []
                if next < children.count {
                    work[work.count - 1].next += 1
                    let child = children[next]
                    if indices[child] == nil {
                        indices[child] = index
                        lowLinks[child] = index
                        index += 1
                        stack.append(child)
                        onStack.insert(child)
                        work.append((child, 0))
                    } else if onStack.contains(child) {
                        lowLinks[node] = min(lowLinks[node] ?? 0, indices[child] ?? 0)
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node { lowLinks[parent] = min(lowLinks[parent] ?? 0, lowLinks[node] ?? 0) }
                guard lowLinks[node] == indices[node] else { continue }
                var component: [String] = []
                while let member = stack.popLast() {
                    onStack.remove(member)
                    component.append(member)
                    if member == node { break }
                }
                if component.count > 1 || (successors[node] ?? []).contains(node) { components.append(component) }
            }
        }
        return components.compactMap { members in
            let inside = Set(members)
            guard let start = members.min() else { return nil }
            let restricted = DependencyGraph(nodes: members, successors: successors.filter { inside.contains($0.key) }.mapValues { $0.filter(inside.contains) })
            if (successors[start] ?? []).contains(start) { return [start, start] }
            return restricted.successors[start]?.lazy.compactMap { restricted.shortestPath(from: $0, to: start) }.first.map { [start] + $0 }
        }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Every component that depends on one of `names`, directly or not (the names themselves excluded).
    public func dependents(of names: Set<String>) -> Set<String> {
        var reverse: [String: [String]] = [:]
        for (node, targets) in successors { for target in targets { reverse[target, default: []].append(node) } }
        var found = Set<String>()
        var queue = Array(names)
        while let node = queue.popLast() {
            for dependent in reverse[node] ?? [] where !found.contains(dependent) && !names.contains(dependent) {
                found.insert(dependent)
                queue.append(dependent)
            }
        }
        return found
    }

    /// `names` and every component they depend on, directly or not.
    public func closure(of names: Set<String>) -> Set<String> {
        var found = names
        var queue = Array(names)
        while let node = queue.popLast() {
            for next in successors[node] ?? [] where found.insert(next).inserted { queue.append(next) }
        }
        return found
    }

    /// `names` with each after every component it depends on, directly or through others; otherwise in the order
    /// given. A cycle is cut where the walk entered it.
    public func dependenciesFirst(_ names: [String]) -> [String] {
        let wanted = Set(names)
        var visited = Set<String>()
        var ordered: [String] = []
        func visit(_ node: String) {
            guard visited.insert(node).inserted else { return }
            for dependency in successors[node] ?? [] { visit(dependency) }
            if wanted.contains(node) { ordered.append(node) }
        }
        names.forEach(visit)
        return ordered
    }
}
