// Swift 2's spellings of NSUserActivity's eligibility switches. Swift 2
// imported an Objective-C `BOOL` property by its name (`eligibleForSearch`);
// Swift 3 by its getter (`isEligibleForSearch`). Code from Apple's iOS 9
// samples sets the old names: it compiles, with a warning naming the new one.

extension NSUserActivity {
    /// Swift 2's spelling of ``isEligibleForSearch``.
    ///
    /// ```swift
    /// activity.eligibleForSearch = true   // warning: renamed to 'isEligibleForSearch'
    /// ```
    @available(*, deprecated, renamed: "isEligibleForSearch")
    public var eligibleForSearch: Bool {
        get { isEligibleForSearch }
        set { isEligibleForSearch = newValue }
    }

    /// Swift 2's spelling of ``isEligibleForPublicIndexing``.
    @available(*, deprecated, renamed: "isEligibleForPublicIndexing")
    public var eligibleForPublicIndexing: Bool {
        get { isEligibleForPublicIndexing }
        set { isEligibleForPublicIndexing = newValue }
    }

    /// Swift 2's spelling of ``isEligibleForHandoff``.
    @available(*, deprecated, renamed: "isEligibleForHandoff")
    public var eligibleForHandoff: Bool {
        get { isEligibleForHandoff }
        set { isEligibleForHandoff = newValue }
    }
}
