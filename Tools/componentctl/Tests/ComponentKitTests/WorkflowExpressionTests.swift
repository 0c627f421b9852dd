import Foundation
import Testing

@testable import ComponentKit

/// The part of GitHub's expression language the local runner evaluates, and what it refuses.
@Suite struct WorkflowExpressionTests {
    let expression = WorkflowExpression(
        contexts: [
            "github": .object(["event": .object(["before": .string("")]), "sha": .string("abc")]),
            "matrix": .object(["name": .string("reader")]),
            "needs": .object(["affected": .object(["outputs": .object(["matrix": .string(#"{"include":[{"name":"reader"}]}"#)])])]),
            "steps": .object(["tool": .object(["outputs": .object(["cache-hit": .string("true")])])]),
        ])

    @Test func operatorsYieldWhatGitHubsDo() throws {
        #expect(try expression.evaluate("github.event.pull_request.base.sha || github.event.before || 'none'") == .string("none"))
        #expect(try expression.evaluate("github.sha || 'x'") == .string("abc"))
        #expect(try expression.evaluate("matrix.name == 'reader' && 'yes'") == .string("yes"))
        #expect(try expression.condition("steps.tool.outputs.cache-hit != 'true'") == false)
        #expect(try expression.condition("${{ !cancelled() && !failure() }}"))
        #expect(try expression.condition("fromJSON(needs.affected.outputs.matrix).include[0] != null"))
        #expect(try !expression.condition("fromJSON('{\"include\":[]}').include[0] != null"))
        #expect(try expression.evaluate("fromJSON(needs.affected.outputs.matrix).include[0]['name']") == .string("reader"))
        #expect(try expression.evaluate("'it''s'") == .string("it's"))
        #expect(try expression.substitute("test ${{ matrix.name }} at ${{ github.sha }}") == "test reader at abc")
        var failed = expression
        failed.needsFailed = true
        #expect(try failed.condition("failure()") && !failed.condition("success()"))
    }

    @Test func whatItDoesNotKnowIsAnErrorNotAGuess() {
        #expect(throws: WorkflowExpressionError.self) { try expression.evaluate("secrets.TOKEN") }
        #expect(throws: WorkflowExpressionError.self) { try expression.evaluate("hashFiles('**/Package.swift')") }
        #expect(throws: WorkflowExpressionError.self) { try expression.substitute("echo ${{ matrix.name") }
        #expect(throws: WorkflowExpressionError.self) { try expression.evaluate("matrix.name == ") }
        #expect(throws: WorkflowExpressionError.self) { try expression.evaluate("fromJSON('not json')") }
    }

    @Test func stepOutputsAreReadAsTheEngineWritesThem() {
        let outputs = LocalWorkflowRunner.outputs("key=abc\nmatrix={\"include\":[]}\nnotes<<EOF\nline one\nline=two\nEOF\nlast=1\n")
        #expect(outputs == ["key": "abc", "matrix": "{\"include\":[]}", "notes": "line one\nline=two", "last": "1"])
    }
}
