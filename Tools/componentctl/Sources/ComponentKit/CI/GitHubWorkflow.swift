import Foundation

/// The GitHub Actions workflow componentctl writes from components.yaml: a job lists the affected
/// components (`affected --format github-matrix`), a job a component runs its standalone tests with
/// `actions/cache` keyed by `componentctl hash`, and a last job checks the workspace and tests the apps.
///
/// The jobs sit between `# BEGIN componentctl: jobs` and `# END componentctl: jobs`; `ci github` and `sync`
/// rewrite only those lines, so the triggers above and any job a team adds below stay as written.
public enum GitHubWorkflow {
    /// Where the workflow lives, relative to the workspace root.
    public static let path = ".github/workflows/components.yml"
    /// The container image of every job when components.yaml names none: the official Swift image on Debian 12.
    public static let defaultImage = "swift:6.3.1-bookworm"
    /// The package of componentctl the jobs build, relative to the workspace root.
    public static let toolPackage = "Tools/componentctl"
    static let begin = "  # BEGIN componentctl: jobs"
    static let end = "  # END componentctl: jobs"
    static let block = GeneratedBlock(begin: begin, end: end)

    /// Where the jobs get componentctl.
    enum Tool {
        /// Built from the workspace's own copy of its sources (the tool's package and those it depends on by path).
        case vendored(folders: [String])
        /// Installed in the job's container image (`workspace.ci-image`), on its `PATH`.
        case installed

        var command: String {
            switch self {
            case .vendored: "\(GitHubWorkflow.toolPackage)/.build/debug/componentctl"
            case .installed: "componentctl"
            }
        }
    }

    /// How the workspace's jobs get componentctl: built from `Tools/componentctl` where the workspace holds it, else from
    /// the container image.
    static func tool(of workspace: Workspace) throws -> Tool {
        guard FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent("\(toolPackage)/Package.swift").path) else { return .installed }
        return .vendored(folders: try StepService.packageFolders([toolPackage], root: workspace.root, manifests: workspace.manifests).sorted())
    }

    /// The whole file, for a workspace that has none yet.
    static func file(_ workspace: Workspace, tool: Tool) -> String {
        """
        # Tests what a change touched, one job a component, with each result cached under the component's key.
        # The jobs between the componentctl markers are generated from components.yaml: 'componentctl ci github'
        # (or 'componentctl sync') rewrites them, and 'componentctl sync --check' fails while they are stale.
        # Everything outside the markers is yours: triggers, permissions, jobs of your own below the END marker.
        name: components

        on:
          pull_request:
          push:
            branches: [main]

        concurrency:
          group: components-${{ github.ref }}
          cancel-in-progress: true

        permissions:
          contents: read

        jobs:
        \(begin)
        \(jobs(workspace, tool: tool))\(end)

        """
    }

    /// The generated jobs, each line ending in a newline.
    static func jobs(_ workspace: Workspace, tool componentctl: Tool) -> String {
        let image = workspace.ciImage
        let tool = componentctl.command
        let apps = workspace.apps.isEmpty ? "--integrated" : workspace.apps.map { "--app \($0.name)" }.joined(separator: " ")
        let install =
            switch componentctl {
            case .vendored: "run: scripts/setup.sh"
            case .installed: "run: if [ -x scripts/setup.sh ]; then scripts/setup.sh; fi"
            }
        let setup = """
                  - uses: actions/checkout@v5
                    with:
                      fetch-depth: 0
                  - name: Install the system packages
                    \(install)
            """
        var fetchTool = """
                  - uses: actions/download-artifact@v7
                    with:
                      name: componentctl
                      path: \(toolPackage)/.build/debug
                  - name: Make componentctl executable
                    run: chmod +x \(tool)
            """
        var getTool = ""
        var shareTool = ""
        switch componentctl {
        case .vendored(let toolFolders):
            getTool = """
                      - name: Key componentctl by its sources
                        id: tool-key
                        run: echo "key=$(git rev-parse \(toolFolders.map { "HEAD:\($0)" }.joined(separator: " ")) | sha256sum | cut -c1-64)" >> "$GITHUB_OUTPUT"
                      - uses: actions/cache@v5
                        id: tool
                        with:
                          path: \(tool)
                          key: componentctl-tool-\(image)-${{ steps.tool-key.outputs.key }}
                      - name: Build componentctl
                        if: steps.tool.outputs.cache-hit != 'true'
                        run: swift build --package-path \(toolPackage) --product componentctl

                """
            shareTool = """
                      - uses: actions/upload-artifact@v6
                        with:
                          name: componentctl
                          path: \(tool)

                """
        case .installed:
            getTool = """
                      - name: Check that the image has componentctl
                        run: |
                          command -v componentctl || { echo "::error::componentctl is not on the PATH of \(image): install it in the image ('make install' of componentctl), or name one that has it in components.yaml's workspace.ci-image"; exit 1; }

                """
            fetchTool = ""
        }
        // Without apps the integrated job is keyed by every component's key; without a root package either, there is
        // nothing integrated to test (an Xcode project's app does not build on a Linux runner).
        let hashApps = workspace.apps.isEmpty ? "hash" : "hash \(apps)"
        let testApps =
            !workspace.apps.isEmpty || WorkspaceLoader.hasRootPackage(at: workspace.root)
            ? """
                  - name: Compute the apps' key
                    id: key
                    run: echo "key=$(\(tool) \(hashApps) --format key | sha256sum | cut -c1-64)" >> "$GITHUB_OUTPUT"
                  - uses: actions/cache@v5
                    with:
                      path: .componentctl/results
                      key: componentctl-test-apps-${{ steps.key.outputs.key }}
                  - name: Test the apps
                    run: \(tool) test \(apps) --verbose --cache .componentctl/results

            """ : ""
        return """
              # Lists the components a change touched and those that depend on them (every one on a first push).
              affected:
                name: affected components
                runs-on: ubuntu-latest
                container: \(image)
                outputs:
                  matrix: ${{ steps.affected.outputs.matrix }}
                steps:
            \(setup)
            \(getTool)      - name: List the affected components
                    id: affected
                    env:
                      BASE: ${{ github.event.pull_request.base.sha || github.event.before }}
                    run: |
                      if [ -n "$BASE" ] && git cat-file -e "$BASE^{commit}" 2>/dev/null; then
                        matrix=$(\(tool) affected --base "$BASE" --format github-matrix)
                      else
                        matrix=$(\(tool) affected --all --format github-matrix)
                      fi
                      echo "matrix=$matrix" >> "$GITHUB_OUTPUT"
            \(shareTool)  # Each affected component alone, in its own package; a key that already passed is not run again.
              component:
                name: ${{ matrix.name }}
                needs: affected
                if: ${{ fromJSON(needs.affected.outputs.matrix).include[0] != null }}
                runs-on: ubuntu-latest
                container: \(image)
                strategy:
                  fail-fast: false
                  matrix: ${{ fromJSON(needs.affected.outputs.matrix) }}
                steps:
            \(setup)
            \(fetchTool.isEmpty ? "" : fetchTool + "\n")      - name: Compute its key
                    id: key
                    run: echo "key=$(\(tool) hash ${{ matrix.name }} --format key | sha256sum | cut -c1-64)" >> "$GITHUB_OUTPUT"
                  - uses: actions/cache@v5
                    with:
                      path: .componentctl/results
                      key: componentctl-test-${{ steps.key.outputs.key }}
                  # What earlier runs compiled; each build still sees only what its package declares.
                  - uses: actions/cache@v5
                    with:
                      path: .build/componentctl-shared
                      key: componentctl-scratch-${{ matrix.name }}-${{ steps.key.outputs.key }}
                      restore-keys: |
                        componentctl-scratch-${{ matrix.name }}-
                        componentctl-scratch-
                  - name: Test it alone
                    run: \(tool) test ${{ matrix.name }} --standalone --verbose --cache .componentctl/results
              # The whole workspace: the layering, the generated files and pins, and the apps' tests.
              app:
                name: checks and apps
                needs: [affected, component]
                if: ${{ !cancelled() && !failure() }}
                runs-on: ubuntu-latest
                container: \(image)
                steps:
            \(setup)
            \(fetchTool.isEmpty ? "" : fetchTool + "\n")      - name: Check the layering
                    run: \(tool) check-layers --format github
                  - name: Check that the generated files and pins are up to date
                    run: \(tool) sync --check
            \(testApps)
            """
    }

    /// The workflow's text as it should be: `current` with its generated jobs rewritten, or a new file.
    /// Throws when `current` lost its markers (the team's file is never overwritten whole).
    static func regenerated(_ current: String?, workspace: Workspace) throws -> String {
        let tool = try tool(of: workspace)
        guard let current else { return file(workspace, tool: tool) }
        for marker in [begin, end] where current.components(separatedBy: marker).count > 2 {
            throw ToolError(
                "\(path) has '\(marker.trimmingCharacters(in: .whitespaces))' more than once, so componentctl does not know which lines are "
                    + "its own. Keep one block (delete the copy), then run 'componentctl ci github'.",
                status: .usage)
        }
        // A file written with CRLF line ends keeps them in the lines componentctl writes too.
        let lineEnd = current.contains("\r\n") ? "\r\n" : "\n"
        let generated = ("\n" + jobs(workspace, tool: tool)).replacingOccurrences(of: "\n", with: lineEnd)
        guard let rewritten = block.rewriting(current, { _ in generated }) else {
            throw ToolError(
                "\(path) has no '\(begin.trimmingCharacters(in: .whitespaces))' ... '\(end.trimmingCharacters(in: .whitespaces))' block, so "
                    + "componentctl does not know which lines are its own. Put the markers back, or move the file away and run 'componentctl ci github'.",
                status: .usage)
        }
        // GitHub refuses a workflow that is not YAML; so does componentctl, whatever part of it broke.
        _ = try YAMLLoader.load(Array(rewritten.utf8), path: path)
        return rewritten
    }
}
