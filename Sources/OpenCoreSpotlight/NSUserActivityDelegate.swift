public import Foundation

/// Told about an activity's life, as Apple's `NSUserActivityDelegate`.
/// Every method is optional (has a default that does nothing).
///
/// ```swift
/// final class RecipeScreen: NSUserActivityDelegate {
///     func userActivityWillSave(_ userActivity: NSUserActivity) {
///         userActivity.addUserInfoEntries(from: ["scroll": currentScrollOffset])
///     }
/// }
/// ```
public protocol NSUserActivityDelegate: AnyObject {
    /// Last chance to update the activity before it is saved (called at
    /// `becomeCurrent()` when `needsSave` is set).
    func userActivityWillSave(_ userActivity: NSUserActivity)
    /// Another device continued the activity (Handoff: never called on Linux).
    func userActivityWasContinued(_ userActivity: NSUserActivity)
    /// Continuation streams (Handoff: never called on Linux).
    func userActivity(_ userActivity: NSUserActivity, didReceive inputStream: InputStream, outputStream: OutputStream)
}

extension NSUserActivityDelegate {
    public func userActivityWillSave(_ userActivity: NSUserActivity) {}
    public func userActivityWasContinued(_ userActivity: NSUserActivity) {}
    public func userActivity(_ userActivity: NSUserActivity, didReceive inputStream: InputStream, outputStream: OutputStream) {}
}
