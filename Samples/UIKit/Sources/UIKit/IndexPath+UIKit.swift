/// UIKit's table and collection view accessors on `IndexPath`.
extension IndexPath {
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    public var section: Int {
        self[0]
    }

    public var row: Int {
        self[1]
    }
}
