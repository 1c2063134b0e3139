import Foundation

/// The first whole number in `text`, e.g. 3 for "Cart (3)" or "3 × Mug".
func firstNumber(in text: String?) -> Int? {
    guard let text else { return nil }
    let digits = text.drop { !$0.isNumber }.prefix { $0.isNumber }
    return Int(digits)
}

/// The dollar amount in `text`, e.g. 25.5 for "Total: $25.50".
func dollars(in text: String?) -> Decimal? {
    guard let text, let dollarSign = text.firstIndex(of: "$") else { return nil }
    let amount = text[text.index(after: dollarSign)...].filter { $0 != "," }
    return Decimal(string: String(amount))
}
