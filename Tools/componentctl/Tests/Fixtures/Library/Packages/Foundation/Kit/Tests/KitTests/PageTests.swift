import Kit
import Testing

@Test func textHasTheTitleFirst() {
    #expect(Page(title: "A", lines: ["b"]).text == "== A ==\nb")
}
