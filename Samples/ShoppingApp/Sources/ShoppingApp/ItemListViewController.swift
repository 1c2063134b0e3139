import UIKit

/// The shop's front page: what can be bought right now, each with an "Add to cart" button,
/// and a badge with the number of items in the cart.
final class ItemListViewController: UIViewController {

    /// Called when the shopper taps "View cart".
    var onShowCart: (() -> Void)?

    /// Called when the shopper taps "Profile".
    var onShowProfile: (() -> Void)?

    private let headerLabel = UILabel()
    private let cartBadgeLabel = UILabel()
    private let itemsStackView = UIStackView()
    private let showCartButton = UIButton(type: .system)
    private let showProfileButton = UIButton(type: .system)

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Shop"

        headerLabel.accessibilityIdentifier = "itemList.header"
        cartBadgeLabel.accessibilityIdentifier = "itemList.cartBadge"
        itemsStackView.accessibilityIdentifier = "itemList.items"
        itemsStackView.spacing = 8

        showCartButton.setTitle("View cart", for: .normal)
        showCartButton.accessibilityIdentifier = "itemList.showCart"
        showCartButton.addAction(UIAction { [weak self] _ in
            self?.onShowCart?()
        }, for: .touchUpInside)

        showProfileButton.setTitle("Profile", for: .normal)
        showProfileButton.accessibilityIdentifier = "itemList.showProfile"
        showProfileButton.addAction(UIAction { [weak self] _ in
            self?.onShowProfile?()
        }, for: .touchUpInside)

        view.addSubview(headerLabel)
        view.addSubview(cartBadgeLabel)
        view.addSubview(showCartButton)
        view.addSubview(showProfileButton)
        view.addSubview(itemsStackView)

        SessionController.sharedController.fetchAvailableItems()
        reloadItems()
        updateCartBadge()
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        // The cart may have changed on the cart screen.
        updateCartBadge()
    }

    private func reloadItems() {
        headerLabel.text = "\(SessionController.sharedController.fetchedItems.count) items in the catalogue"

        itemsStackView.arrangedSubviews.forEach { $0.removeFromSuperview() }
        for item in SessionController.sharedController.availableItems {
            itemsStackView.addArrangedSubview(makeRow(for: item))
        }
    }

    private func makeRow(for item: Item) -> UIView {
        let nameLabel = UILabel()
        nameLabel.text = item.name
        nameLabel.accessibilityIdentifier = "itemList.item.\(item.id).name"

        let priceLabel = UILabel()
        priceLabel.text = item.price.priceText
        priceLabel.accessibilityIdentifier = "itemList.item.\(item.id).price"

        let addButton = UIButton(type: .system)
        addButton.setTitle("Add to cart", for: .normal)
        addButton.accessibilityIdentifier = "itemList.item.\(item.id).add"
        addButton.addAction(UIAction { [weak self] _ in
            SessionController.sharedController.addItemToCart(item: item)
            self?.updateCartBadge()
        }, for: .touchUpInside)

        let row = UIStackView(arrangedSubviews: [nameLabel, priceLabel, addButton])
        row.accessibilityIdentifier = "itemList.item.\(item.id)"
        return row
    }

    private func updateCartBadge() {
        let count = SessionController.sharedController.cart.items.count
        cartBadgeLabel.text = "Cart (\(count))"
    }
}
