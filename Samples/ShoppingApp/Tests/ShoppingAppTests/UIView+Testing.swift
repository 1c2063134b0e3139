import UIKit

extension UIView {

    /// Every view below this one, depth first.
    var allDescendants: [UIView] {
        subviews.flatMap { [$0] + $0.allDescendants }
    }

    /// The first descendant of type `T` with the given accessibility identifier.
    func descendant<T: UIView>(_ type: T.Type, identifier: String) -> T? {
        allDescendants.lazy.compactMap { $0 as? T }.first { $0.accessibilityIdentifier == identifier }
    }

    /// Descendants of type `T` whose identifier starts with `prefix` and ends with `suffix`.
    func descendants<T: UIView>(_ type: T.Type, identifierPrefix prefix: String, suffix: String = "") -> [T] {
        allDescendants.compactMap { $0 as? T }.filter {
            guard let identifier = $0.accessibilityIdentifier else { return false }
            return identifier.hasPrefix(prefix) && identifier.hasSuffix(suffix)
        }
    }
}

extension UIButton {

    /// Taps the button, as a user would.
    func tap() {
        sendActions(for: .touchUpInside)
    }
}

extension UIViewController {

    func label(_ identifier: String) -> UILabel? {
        view.descendant(UILabel.self, identifier: identifier)
    }

    func button(_ identifier: String) -> UIButton? {
        view.descendant(UIButton.self, identifier: identifier)
    }

    func textField(_ identifier: String) -> UITextField? {
        view.descendant(UITextField.self, identifier: identifier)
    }
}
