/// The address book.
@MainActor
final class ContactsScreen {
    func add(_ name: String) -> Int {
        AppServices.shared.trackScreen("contacts")
        AppServices.shared.addContact(name: name)
        return AppServices.shared.contactCount
    }

    func remove(_ name: String) -> Int {
        AppServices.shared.removeContact(name: name)
        return AppServices.shared.contacts.count
    }

    func favorite(_ name: String) {
        AppServices.shared.favoriteContacts.insert(name)
    }
}
