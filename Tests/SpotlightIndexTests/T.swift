import Testing
import Foundation
@testable import SpotlightIndex
@Test func smoke() throws {
    let store = try SpotlightStore.inMemory()
    var a = SearchableItem(uniqueIdentifier: "a")
    a.attributes["title"] = .string("Zoë Martin")
    a.attributes["contentDescription"] = .string("中文字幕 学校에서")
    let r = try store.index([a])
    #expect(r.accepted == 1)
    for q in ["zoe mar", "ZOË", "中", "文字", "中文字", "학교", "marti zo", "nothing"] {
        let res = try store.search(q)
        print(q, res.map { $0.item.uniqueIdentifier + " " + $0.score.explanation })
    }
}
