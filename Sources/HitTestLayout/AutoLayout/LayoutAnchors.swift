import HitTestCore

/// A horizontal position of a view or layout guide (`NSLayoutXAxisAnchor`): leading, trailing,
/// left, right, centerX. Makes constraints with another horizontal anchor.
public struct XAxisAnchor {
    /// The view or layout guide.
    public let item: AnyObject
    /// Which position.
    public let attribute: LayoutConstraint.Attribute

    /// `self == anchor + constant`, inactive.
    public func constraint(equalTo anchor: XAxisAnchor, constant: Double = 0) -> LayoutConstraint {
        make(.equal, anchor.item, anchor.attribute, constant)
    }
    /// `self >= anchor + constant`, inactive.
    public func constraint(greaterThanOrEqualTo anchor: XAxisAnchor, constant: Double = 0) -> LayoutConstraint {
        make(.greaterThanOrEqual, anchor.item, anchor.attribute, constant)
    }
    /// `self <= anchor + constant`, inactive.
    public func constraint(lessThanOrEqualTo anchor: XAxisAnchor, constant: Double = 0) -> LayoutConstraint {
        make(.lessThanOrEqual, anchor.item, anchor.attribute, constant)
    }

    private func make(_ r: LayoutConstraint.Relation, _ other: AnyObject, _ a: LayoutConstraint.Attribute, _ c: Double) -> LayoutConstraint {
        LayoutConstraint(item: item, attribute: attribute, relatedBy: r, toItem: other, attribute: a, multiplier: 1, constant: c)
    }
}

/// A vertical position of a view or layout guide (`NSLayoutYAxisAnchor`): top, bottom,
/// centerY. Makes constraints with another vertical anchor.
public struct YAxisAnchor {
    /// The view or layout guide.
    public let item: AnyObject
    /// Which position.
    public let attribute: LayoutConstraint.Attribute

    /// `self == anchor + constant`, inactive.
    public func constraint(equalTo anchor: YAxisAnchor, constant: Double = 0) -> LayoutConstraint {
        make(.equal, anchor.item, anchor.attribute, constant)
    }
    /// `self >= anchor + constant`, inactive.
    public func constraint(greaterThanOrEqualTo anchor: YAxisAnchor, constant: Double = 0) -> LayoutConstraint {
        make(.greaterThanOrEqual, anchor.item, anchor.attribute, constant)
    }
    /// `self <= anchor + constant`, inactive.
    public func constraint(lessThanOrEqualTo anchor: YAxisAnchor, constant: Double = 0) -> LayoutConstraint {
        make(.lessThanOrEqual, anchor.item, anchor.attribute, constant)
    }

    private func make(_ r: LayoutConstraint.Relation, _ other: AnyObject, _ a: LayoutConstraint.Attribute, _ c: Double) -> LayoutConstraint {
        LayoutConstraint(item: item, attribute: attribute, relatedBy: r, toItem: other, attribute: a, multiplier: 1, constant: c)
    }
}

/// A width or height of a view or layout guide (`NSLayoutDimension`). Makes constraints with a
/// constant or with another dimension (of either axis), with a multiplier.
public struct DimensionAnchor {
    /// The view or layout guide.
    public let item: AnyObject
    /// `.width` or `.height`.
    public let attribute: LayoutConstraint.Attribute

    /// `self == constant`, inactive.
    public func constraint(equalToConstant constant: Double) -> LayoutConstraint { make(.equal, nil, 0, constant) }
    /// `self >= constant`, inactive.
    public func constraint(greaterThanOrEqualToConstant constant: Double) -> LayoutConstraint { make(.greaterThanOrEqual, nil, 0, constant) }
    /// `self <= constant`, inactive.
    public func constraint(lessThanOrEqualToConstant constant: Double) -> LayoutConstraint { make(.lessThanOrEqual, nil, 0, constant) }

    /// `self == anchor + constant`, inactive.
    public func constraint(equalTo anchor: DimensionAnchor, constant: Double = 0) -> LayoutConstraint {
        make(.equal, anchor, 1, constant)
    }
    /// `self >= anchor + constant`, inactive.
    public func constraint(greaterThanOrEqualTo anchor: DimensionAnchor, constant: Double = 0) -> LayoutConstraint {
        make(.greaterThanOrEqual, anchor, 1, constant)
    }
    /// `self <= anchor + constant`, inactive.
    public func constraint(lessThanOrEqualTo anchor: DimensionAnchor, constant: Double = 0) -> LayoutConstraint {
        make(.lessThanOrEqual, anchor, 1, constant)
    }
    /// `self == multiplier × anchor + constant`, inactive.
    public func constraint(equalTo anchor: DimensionAnchor, multiplier: Double, constant: Double = 0) -> LayoutConstraint {
        make(.equal, anchor, multiplier, constant)
    }
    /// `self >= multiplier × anchor + constant`, inactive.
    public func constraint(greaterThanOrEqualTo anchor: DimensionAnchor, multiplier: Double, constant: Double = 0) -> LayoutConstraint {
        make(.greaterThanOrEqual, anchor, multiplier, constant)
    }
    /// `self <= multiplier × anchor + constant`, inactive.
    public func constraint(lessThanOrEqualTo anchor: DimensionAnchor, multiplier: Double, constant: Double = 0) -> LayoutConstraint {
        make(.lessThanOrEqual, anchor, multiplier, constant)
    }

    private func make(_ r: LayoutConstraint.Relation, _ other: DimensionAnchor?, _ m: Double, _ c: Double) -> LayoutConstraint {
        LayoutConstraint(
            item: item, attribute: attribute, relatedBy: r, toItem: other?.item,
            attribute: other?.attribute ?? .notAnAttribute, multiplier: m, constant: c)
    }
}
