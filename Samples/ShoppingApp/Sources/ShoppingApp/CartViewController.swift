import UIKit

/// What is in the cart: one line per item with its quantity, an "Add one more" button on
/// each line, and the total.
final class CartViewController: UIViewController {

    private let linesStackView = UIStackView()
    private let emptyLabel = UILabel()
    private let totalLabel = UILabel()

    init(title: String) {
        super.init(nibName: nil, bundle: nil)
        self.title = title
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func viewDidLoad() {
        super.viewDidLoad()

        linesStackView.accessibilityIdentifier = "cart.lines"
        emptyLabel.accessibilityIdentifier = "cart.empty"
        emptyLabel.text = "Your cart is empty."
        totalLabel.accessibilityIdentifier = "cart.total"

        view.addSubview(emptyLabel)
        view.addSubview(linesStackView)
        view.addSubview(totalLabel)

        reloadCart()
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        reloadCart()
    }

    private func reloadCart() {
        let cart = SessionController.sharedController.cart

        linesStackView.arrangedSubviews.forEach { $0.removeFromSuperview() }
        for line in cart.lines {
            linesStackView.addArrangedSubview(makeRow(for: line))
        }

        emptyLabel.isHidden = !cart.isEmpty
        totalLabel.text = "Total: \(cart.total.priceText)"
    }

    private func makeRow(for line: Cart.Line) -> UIView {
        let itemID = line.item.id

        let quantityLabel = UILabel()
        quantityLabel.text = "\(line.quantity) × \(line.item.name)"
        quantityLabel.accessibilityIdentifier = "cart.line.\(itemID).quantity"

        let subtotalLabel = UILabel()
        subtotalLabel.text = line.subtotal.priceText
        subtotalLabel.accessibilityIdentifier = "cart.line.\(itemID).subtotal"

        let addOneMoreButton = UIButton(type: .system)
        addOneMoreButton.setTitle("Add one more", for: .normal)
        addOneMoreButton.accessibilityIdentifier = "cart.line.\(itemID).addOneMore"
        addOneMoreButton.addAction(UIAction { [weak self] _ in
            SessionController.sharedController.addItemToCart(item: line.item)
            self?.reloadCart()
        }, for: .touchUpInside)

        let row = UIStackView(arrangedSubviews: [quantityLabel, subtotalLabel, addOneMoreButton])
        row.accessibilityIdentifier = "cart.line.\(itemID)"
        return row
    }
}
